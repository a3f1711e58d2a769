"""Rolling Stock Stars table assistant."""
