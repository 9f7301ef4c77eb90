"""cvsuite: the science behind the cross-validation experiment suite.

Plain functions on arrays, one module per job: data generators, fold constructions, estimators,
the summaries each study reports, and the comparison of reproduced against published numbers.
Nothing here reads config; only `cvsuite.workflow.outputs` writes files, for the thin entry points in
`experiments/`.
"""
