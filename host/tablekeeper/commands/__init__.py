"""The ``tablekeeper …`` subcommands, one module each; ``tablekeeper.cli`` imports only the one being run."""
