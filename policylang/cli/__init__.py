"""The `policylang` command line; sits on top of every stage (nothing imports it)."""
