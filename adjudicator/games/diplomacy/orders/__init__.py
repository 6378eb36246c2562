"""Orders: text -> parsed orders (`parse`) -> validated orders (`validate`)."""
