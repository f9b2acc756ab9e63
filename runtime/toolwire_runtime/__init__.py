"""Hand-written runtime of toolwire: errors, the conversion context, and the transform vocabulary.

The generator never writes here. Generated converters (package ``toolwire``) call these functions
with constant arguments taken from the spec; nothing here reads the spec.
"""
