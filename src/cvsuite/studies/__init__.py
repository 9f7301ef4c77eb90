"""The science of each study, one module named as its rule (and <study>_*.py where it needs room)."""
