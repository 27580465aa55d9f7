"""The roof: the `marquee` command (cli.py, commands/) and the service supervisor (services.py),
above every other package (docs/architecture.md, "The floors of the code")."""
