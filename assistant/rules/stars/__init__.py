"""Rolling Stock Stars (with the names of Rolling Stock v2.2): its cards, rules text, hooks and rulesets."""
