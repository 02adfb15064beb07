"""Memory files cut into chunks (`import memory`): sections keep their headings as context."""
from oneclaw_search.domain.memory_markdown import markdown_chunks

STRUCTURED = """# Long-term Memory

## User Profile
- Name: Ken
- Lives in Tokyo

## Preferences

- Loves sushi
- Dislikes natto

### Food

Vegetarian on Mondays

---

## Notes
"""


def test_a_structured_memory_file_indexes_every_entry_under_its_section():
    # OneClaw drops every chunk starting with '#', which is every chunk of this file.
    assert markdown_chunks(STRUCTURED) == [
        "## User Profile\n- Name: Ken\n- Lives in Tokyo",
        "## Preferences\n- Loves sushi\n- Dislikes natto",
        "## Preferences / Food\nVegetarian on Mondays",
    ]


def test_windows_and_old_mac_line_ends_split_like_unix_ones():
    assert markdown_chunks(STRUCTURED.replace("\n", "\r\n")) == markdown_chunks(STRUCTURED)
    assert markdown_chunks(STRUCTURED.replace("\n", "\r")) == markdown_chunks(STRUCTURED)


def test_a_daily_log_loses_its_title_and_rules_and_keeps_each_entry():
    log = "# Daily Log - 2026-02-25\n\nDiscussed dinner plans.\n\n---\n\nBooked Sakura Sushi.\n  \n---\n\n"
    assert markdown_chunks(log) == ["Discussed dinner plans.", "Booked Sakura Sushi."]


def test_a_new_section_closes_the_deeper_ones_and_plain_text_needs_no_heading():
    text = "intro line\n\n## A\n### B\nunder b\n\n## C\nunder c\n\n#### D\nunder d"
    assert markdown_chunks(text) == ["intro line", "## A / B\nunder b", "## C\nunder c", "## C / D\nunder d"]


def test_empty_and_heading_only_files_give_no_chunks():
    assert markdown_chunks("") == [] and markdown_chunks("# Title\n\n## Empty section\n\n\n") == []
