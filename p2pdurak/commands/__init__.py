"""Subcommands of the `p2pdurak` command line."""
