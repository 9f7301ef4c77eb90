"""cvsuite.published.document_units: a document's text cut into prose sentences and the units that
are not prose, each of one kind, on texts made up for the test in the documents' layout."""

from cvsuite.published.document_units import (
    CODE,
    DIAGRAM,
    HEADING,
    MATHS,
    OUTPUT,
    PLACEHOLDER,
    PROSE,
    QUESTION,
    QUIZ_ANSWER,
    QUIZ_OPTIONS,
    RULE,
    TABLE_ROW,
    TITLE,
    document_units,
    sentence_spans,
)


def units(text: str) -> list[tuple[str, str]]:
    found = document_units(text)
    assert all(text[u.start : u.end] == u.text for u in found)  # every unit is its span of the text
    return [(u.kind, u.text) for u in found]


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text, 0, len(text))]


def test_a_paragraph_is_cut_at_each_sentence_end_but_not_inside_maths_or_after_an_abbreviation():
    text = (
        "The estimate is (ESL, eq. 7.48) unbiased. Recht et al. (2018) found a drop; it was large! "
        "$K = n$ is leave-one-out. Is it? “Quoted.” Then $a. B$ holds. 200 images. §7.10 says so. "
        "nnU-Net trains five folds. cross_val_score averages. the rest stays."
    )
    assert sentences(text) == [
        "The estimate is (ESL, eq. 7.48) unbiased.",
        "Recht et al. (2018) found a drop; it was large!",
        "$K = n$ is leave-one-out.",
        "Is it?",
        "“Quoted.”",
        "Then $a. B$ holds.",
        "200 images.",
        "§7.10 says so.",
        "nnU-Net trains five folds.",
        "cross_val_score averages. the rest stays.",
    ]


def test_headings_bullets_questions_and_a_sentence_that_runs_into_a_formula():
    text = (
        "Purpose\n\n"
        "One claim. Why so? Because.\n\n"
        "• Model selection. The curve is estimated.\n"
        "2. Balance the folds.\n\n"
        "The estimate is (ESL, eq. 7.48)\n\n"
        "$$\\mathrm{CV} = \\frac{1}{n}\\sum L,$$\n\n"
        "where $L$ is the loss.\n\n"
        "becomes\n\n"
        "---\n"
    )
    assert units(text) == [
        (HEADING, "Purpose"),
        (PROSE, "One claim."),
        (QUESTION, "Why so?"),
        (PROSE, "Because."),
        (PROSE, "Model selection."),  # a bullet's marker is not part of its sentences
        (PROSE, "The curve is estimated."),
        (PROSE, "Balance the folds."),
        (PROSE, "The estimate is (ESL, eq. 7.48)"),  # no heading: it runs into the formula
        (MATHS, "$$\\mathrm{CV} = \\frac{1}{n}\\sum L,$$"),
        (PROSE, "where $L$ is the loss."),
        (PROSE, "becomes"),  # lower case: a sentence's piece between formulas, not a heading
        (RULE, "---"),
    ]


def test_a_listing_its_printed_output_and_the_prose_after_them():
    listing = "import numpy as np\n\nK = 4                 # classes\n\ndef f(x):\n    return x\n \nprint(f(K))"
    printed = "Output:\n\nPart 1: one line\nsecond line\n\nPart 2: more\n 0.5"
    text = f"Intro sentence.\n\nlisting.py\n\n{listing}\n\n{printed}\n\nThe prose resumes here.\n"
    assert units(text) == [
        (PROSE, "Intro sentence."),
        (TITLE, "listing.py"),
        (CODE, listing),  # its blank and one-line paragraphs stay inside it
        (OUTPUT, printed),  # until the first paragraph of one line
        (PROSE, "The prose resumes here."),
    ]
    # A listing with no printed output ends at the first paragraph that reads as prose.
    bare = "def g():\n    pass\n\ng()\n\nThe listing defines g.\n"
    assert units(bare) == [(CODE, "def g():\n    pass\n\ng()"), (PROSE, "The listing defines g.")]


def test_titles_a_diagram_and_a_table():
    text = (
        "diagram Two repairs mermaid\n\n"
        '  flowchart TD\n  P["a box\nsecond line"] --> Q\n\n'
        "figure The risk falls matplotlib\n\n"
        "A caption. It states.\n\n"
        "\tleft\tright\n"
        "cost\tnone\t$K$ runs\n"
    )
    assert units(text) == [
        (TITLE, "diagram Two repairs mermaid"),
        (DIAGRAM, '  flowchart TD\n  P["a box\nsecond line"] --> Q'),
        (TITLE, "figure The risk falls matplotlib"),
        (PROSE, "A caption."),
        (PROSE, "It states."),
        (TABLE_ROW, "left\tright"),  # the empty first cell's tab is not part of the row
        (TABLE_ROW, "cost\tnone\t$K$ runs"),
    ]


def test_a_quiz_its_options_its_answer_key_and_the_explanation():
    option_b = "Nothing went wrong — with K = 2 each fold trains on 12 points"
    text = (
        "pch.quizTag Do you know?\n\n"
        "1. Two-fold reported 5.1. What went wrong?\n\n"
        f"   A A bad shuffle B {option_b} C The model D The truth\n"
        "   pch.quizShowAnswer\n\n"
        f"   B — {option_b} — The figure is a mean. So it is bias.\n\n"
        "Exercise 1 – The closed form\n\n"
        "pch.exerciseTag pch.exerciseTitle\n"
    )
    found = document_units(text)
    assert [(u.kind, u.text) for u in found] == [
        (TITLE, "pch.quizTag Do you know?"),
        (PROSE, "Two-fold reported 5.1."),
        (QUESTION, "What went wrong?"),
        (QUIZ_OPTIONS, f"A A bad shuffle B {option_b} C The model D The truth"),
        (PLACEHOLDER, "pch.quizShowAnswer"),
        (QUIZ_ANSWER, f"B — {option_b}"),  # the key ends at the dash after the option as listed
        (PROSE, "The figure is a mean."),
        (PROSE, "So it is bias."),
        (HEADING, "Exercise 1 – The closed form"),
        (PLACEHOLDER, "pch.exerciseTag pch.exerciseTitle"),
    ]
    key, options = found[5], found[3]
    start, end = key.repeats
    assert text[start:end] == option_b and options.start < start < end < options.end


def test_every_non_blank_character_stands_in_one_unit_but_list_markers_and_the_answer_dash():
    text = "Heading\n\n• First item. Second.\n3. Third.\n\n$$x$$\n\nA last one?\n"
    found = document_units(text)
    covered = sorted(i for u in found for i in range(u.start, u.end))
    assert len(covered) == len(set(covered))
    left = "".join(text[i] for i in range(len(text)) if i not in set(covered) and not text[i].isspace())
    assert left == "•3."
