"""``python3 -m cluster``: the command line of the cluster driver."""

import sys

from cluster.cli import main

if __name__ == "__main__":
    sys.exit(main())
