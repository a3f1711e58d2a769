"""Classic Rolling Stock (the Players Guide's game): its cards, rules text, hooks and ruleset."""
