"""AutoGraph directives: calls in user code that converted code reads."""
