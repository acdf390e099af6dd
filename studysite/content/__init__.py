"""Content: the YAML files read, checked against the schema, and made into the model and its graph."""
