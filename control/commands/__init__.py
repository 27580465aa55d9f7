"""Click commands, one module per concern; control.cli adds each module's commands to the group."""
