"""Click commands, one module per concern; marquee.cli adds each module's commands to the group."""
