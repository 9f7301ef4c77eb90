"""The data generators: simulated samples and images, drawn in the documents' order."""
