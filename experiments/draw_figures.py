"""The figure rules' entry point: draw one study's figures from its saved tables and arrays.

Every rule ``<study>_figures`` runs this file with its job on the command line; the study is its
``params.study``, and its figures are ``cvsuite.figures.<study>.draw`` (see ``cvsuite.workflow.figure_job``).
"""

from cvsuite.workflow.figure_job import run_figure_job

if __name__ == "__main__":
    run_figure_job()
