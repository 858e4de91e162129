//! The engines' processes: each started in a process group of its own, and killed with the
//! whole group, so that no helper process an engine started (a wrapper script's engine, a
//! search worker) outlives it.

use std::process::{Child, Command};

/// Makes `command` start its process as the leader of a new process group (on Unix; elsewhere
/// nothing changes).
pub fn own_group(command: &mut Command) -> &mut Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command
}

/// Kills `child` and every process of its group at once (SIGKILL), then reaps `child`.
///
/// Call it while the group may still have members: after the leader has been reaped its
/// number stays reserved only as long as the group has a member (Linux keeps a process
/// group's id from being reused while any process is in it), and the call comes right after,
/// so an empty group's number is never signalled after it was handed to another process in
/// practice.
pub fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        // The group whose id is the child's pid: the one `own_group` created.
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}
