"""AutoGraph utilities: logging."""
