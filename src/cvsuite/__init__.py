"""cvsuite: the science behind the cross-validation experiment suite.

Plain functions on arrays, one module per job: data generators, fold constructions, estimators,
the summaries each study reports, and the comparison of reproduced against published numbers.
The science (methods/, data/, studies/, figures/) reads no config and no file; `cvsuite.workflow`
reads the config and studies.yaml and writes every file; `cvsuite.published.records` reads the
registry, and `cvsuite.published.judges` holds the rules that judge each record.
"""
