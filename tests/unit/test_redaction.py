"""Secrets pasted into chats are masked: each kind, key=value pairs keep their key, text
without secrets is untouched, and a masked value never breaks the JSON around it."""
import json

import pytest

from oneclaw_search.domain.redaction import redact

FAKE = {
    "anthropic key": "sk-ant-api03-" + "Ab1_" * 12,
    "openai key": "sk-proj-" + "Zx9-" * 10,
    "aws key": "AKIA" + "ABCDEFGHIJ234567",
    "github token": "ghp_" + "a1B2" * 9,
    "slack token": "xoxb-1234567890-abcdefghij",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
}


@pytest.mark.parametrize("kind, secret", FAKE.items())
def test_each_kind_of_secret_is_masked_and_named(kind, secret):
    masked = redact(f"here it is: {secret} keep it safe")
    assert secret not in masked and secret[:12] not in masked
    assert masked == f"here it is: [REDACTED:{kind}] keep it safe"


def test_a_private_key_block_is_masked_whole():
    block = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\nAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----"
    assert redact(f"my key:\n{block}\nthanks") == "my key:\n[REDACTED:private key]\nthanks"


@pytest.mark.parametrize("text, masked", [
    ("password=hunter22 and more", "password=[REDACTED] and more"),
    ("DB_PASSWORD: 'correct-horse'", "DB_PASSWORD: '[REDACTED]'"),
    ('{"api_key": "abc123xyz"}', '{"api_key": "[REDACTED]"}'),
    ("my password is long", "my password is long"),
])
def test_key_value_pairs_keep_their_key_and_lose_their_value(text, masked):
    assert redact(text) == masked


def test_text_without_secrets_is_returned_as_it_was():
    text = "Sakura Sushi is near the Hachiko exit; skip the sk- prefix talk, it's fine: ok"
    assert redact(text) == text


def test_a_masked_value_inside_json_leaves_valid_json():
    document = json.dumps({"text": f"token={FAKE['github token']}; password=\"p4ss\\word\"", "n": 1})
    assert json.loads(redact(document))["n"] == 1
