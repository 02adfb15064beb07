"""read_session through the production container on the seeded SQLite file: a search hit
followed into its conversation, as an agent host would do it."""
import json

from acceptance_helpers import call

from oneclaw_search.tools import ToolExecutionEngine


def read(container, **parameters):
    return container.get(ToolExecutionEngine).execute_tool("read_session", parameters)


def test_a_search_hit_leads_to_the_turns_around_it_in_the_hosts_zone(container):
    hit = json.loads(call(container, query="Hachiko", format="json").result)["results"][0]
    assert (hit["id"], hit["session_id"]) == ("m-sakura", "s-dinner")
    result = read(container, session_id=hit["session_id"], around_message_id=hit["id"])
    # The tool call between the turns is no turn; times are Tokyo's, as the container's zone.
    assert result.result.splitlines() == [
        '[Session "Dinner Planning" (id: s-dinner, 2026-02-25 19:00 to 2026-02-25 19:02; turns 1-2 of 2)]', "",
        "--- Turn 1 (2026-02-25 19:00; id: m-sushi) ---",
        "User: Can you help me find a good sushi restaurant near Shibuya station?", "",
        "--- Turn 2 (2026-02-25 19:01, asked about; id: m-sakura) ---",
        "Assistant: Sakura Sushi is a restaurant two minutes from the Hachiko exit.",
    ]


def test_json_names_the_session_and_each_turn(container):
    document = json.loads(read(container, session_id="s-dinner", before=0, after=0, around_message_id="m-sushi",
                               format="json").result)
    assert document["session"] | {"created_at": 0, "updated_at": 0} == {
        "id": "s-dinner", "title": "Dinner Planning", "created_at": 0, "updated_at": 0, "turns": 2}
    assert [(m["id"], m["turn"], m["role"], m["time"]) for m in document["messages"]] == [
        ("m-sushi", 1, "user", "2026-02-25 19:00")]


def test_a_deleted_session_and_a_message_of_another_session_are_not_found(container):
    gone = read(container, session_id="s-deleted")
    elsewhere = read(container, session_id="s-dinner", around_message_id="m-italian")
    assert (gone.error_type, gone.error_message) == ("not_found", "No session 's-deleted'")
    assert (elsewhere.error_type, elsewhere.error_message) == (
        "not_found", "No message 'm-italian' among the turns of session 's-dinner'")
