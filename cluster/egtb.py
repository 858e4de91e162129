"""Placeholder."""


def add_arguments(p):
    """None yet."""


def run(args, ray_connect):
    """None yet."""
    return 2
