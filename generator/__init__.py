"""toolwire generator: spec/ (YAML) + templates/ (Jinja) → generated/toolwire (Python)."""
