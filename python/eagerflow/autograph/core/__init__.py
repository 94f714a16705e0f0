"""AutoGraph runtime support objects."""
