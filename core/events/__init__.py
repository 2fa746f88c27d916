"""An event: its settings, who may see and direct it, and its house rules."""
