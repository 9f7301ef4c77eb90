"""The figure rules' entry point: draw one study's figures from its saved tables and arrays.

Every rule ``<study>_figures`` runs this file with its job on the command line; the study is its
``params.study``, and its figures are ``cvsuite.figures.<study>.draw`` (see ``cvsuite.workflow.figure_job``).
"""

import matplotlib.artist

# As matplotlib defines each Artist class, it writes the docstring of its set(), a list of every
# property (matplotlib.artist.kwdoc), for help() to show: 0.07 s of CPU in each figure job, which
# shows no help. Here alone, not in the library, so that an interactive session keeps its help.
matplotlib.artist.kwdoc = lambda artist: ""

from cvsuite.workflow.figure_job import run_figure_job  # noqa: E402

if __name__ == "__main__":
    run_figure_job()
