"""The published numbers: the registry, printed precision, the comparison and the report."""
