"""One module of figures per study, the one figure style, and the layout checks."""
