"""The shipped static embedder (Q-09): offline, inside the package, used for memory chunks when written."""
import json

import numpy as np
import pytest
from acceptance_helpers import call
from builders import built, chunk, ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.data.embedding.static_embedder import MODEL_DIR, StaticEmbedder
from oneclaw_search.di import create_injector
from oneclaw_search.di.core_module import default_embedder

CLOCK = FixedClock(ms("2026-03-01T12:00"))


@pytest.mark.spec("Q-09")
def test_the_model_ships_in_the_package_with_its_licence_notice():
    assert {path.name for path in MODEL_DIR.iterdir()} >= {"config.json", "model.safetensors", "tokenizer.json", "NOTICE"}
    notice = (MODEL_DIR / "NOTICE").read_text()
    assert "Apache License, Version 2.0" in notice and "all-MiniLM-L6-v2" in notice
    assert isinstance(default_embedder(), StaticEmbedder)


@pytest.mark.spec("Q-09")
def test_vectors_are_unit_length_and_close_for_close_meanings(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors = StaticEmbedder().embed(["restaurant", "place to eat dinner", "kubernetes deployment"])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


@pytest.mark.spec("Q-09")
def test_building_the_index_embeds_no_message_and_a_search_only_its_query_for_memory(history, mocker):
    rows = [new_message(f"m{i}", "s", f"Reminder number {i} about the weekly budget", f"2026-02-01T10:0{i}") for i in range(8)]
    path = history([new_session("s", "Notes", "2026-02-01T09:00")], rows,
                   [chunk("c", "The budget review is on Friday.", "2026-02-01")], embedder=default_embedder())
    embed = mocker.spy(StaticEmbedder, "embed")
    container = built(create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo"))
    assert embed.call_count == 0  # messages are ranked by their words: meaning earned no place (docs/performance.md)
    document = json.loads(call(container, query="budget meeting", format="json").result)
    assert [len(c.args[1]) for c in embed.call_args_list] == [1]  # the query alone, for memory's vectors
    assert any(name.startswith("semantic (minilm") for name in document["retrievers"])
    assert all(item["why"]["vector"] is None for item in document["results"] if item["source"] == "message")


TEXTS = ["", "sushi restaurant tokyo", "東京で寿司を食べた", "🙂 only", "x" * 5_000, " ".join(["word"] * 2_000),
         "École über naïve", "\x00\n\t", "memorySearch in src/main.kt", "a b c d e f g",
         # ASCII texts are pooled word by word (data/embedding/word_sums.py); these probe where that could drift
         "snake_case_name{x:[1,2]}~`^|\\", "ab\x01cd joined by a dropped control", "y" * 101 + " after a word too long",
         "supercalifragilistic " * 120, "Tabs\tand\r\nbreaks  UPPER lower 12345 3.14", "!!! ??? ...", "   ",
         # other texts are cut at ASCII spaces and tokenized piece by piece
         "Café\u00a0au lait (naïve) e\u0301cole", "ΣΊΣΥΦΟΣ σοφός", "zero\u200dwidth\u00adsoft \x85nel",
         "Ａｂｃ fullwidth 混合text中文English", "👍🏽 emoji\u3000ideographic space", "é" * 600]


@pytest.mark.spec("Q-09")
def test_our_reader_of_the_shipped_folder_gives_model2vecs_own_vectors():
    from model2vec import StaticModel

    reference = StaticModel.from_pretrained(str(MODEL_DIR)).encode(TEXTS, use_multiprocessing=False)
    assert np.array_equal(StaticEmbedder().embed(TEXTS), reference)


@pytest.mark.spec("Q-09")
def test_a_folder_with_per_token_weights_goes_through_model2vec(tmp_path):
    from model2vec import StaticModel
    from safetensors.numpy import load_file, save_file

    for name in ("config.json", "tokenizer.json"):
        (tmp_path / name).write_bytes((MODEL_DIR / name).read_bytes())
    table = load_file(str(MODEL_DIR / "model.safetensors"))["embeddings"]
    weights = np.linspace(0.5, 2.0, len(table)).astype(np.float64)
    save_file({"embeddings": table, "weights": weights}, str(tmp_path / "model.safetensors"))
    reference = StaticModel.from_pretrained(str(tmp_path)).encode(TEXTS, use_multiprocessing=False)
    assert np.array_equal(StaticEmbedder(tmp_path).embed(TEXTS), reference)
    assert not np.allclose(reference[1], StaticEmbedder().embed(TEXTS)[1])  # the weights did change something


@pytest.mark.spec("Q-09")
def test_words_forgotten_when_too_many_are_learned_again_with_the_same_vectors(monkeypatch, mocker):
    import oneclaw_search.data.embedding.word_sums as word_sums

    pooled = mocker.spy(word_sums.WordSums, "encode")
    reference = StaticEmbedder().embed(TEXTS)
    assert "東京で寿司を食べた" in pooled.call_args.args[1] and "ab\x01cd joined by a dropped control" not in pooled.call_args.args[1]
    monkeypatch.setattr(word_sums, "_MAX_BYTES", 6 * 2 * 384)  # six words of 384 int16 columns
    forgetful = StaticEmbedder()
    assert np.array_equal(forgetful.embed(TEXTS[:3]), reference[:3])
    cleared = mocker.spy(word_sums.WordSums, "_clear")
    assert np.array_equal(forgetful.embed(TEXTS), reference)
    assert cleared.call_count == 1  # more new words than fit: it started over


@pytest.mark.spec("Q-09")
def test_a_word_whose_summed_rows_leave_int16_takes_the_tokenizers_path_with_the_same_vectors(mocker):
    from model2vec import StaticModel

    # Ideographic spaces split BERT's words but not our chunks: 300 pieces of one row reaching 110
    # sum to 33,000 in one chunk, past int16, though the text stays under the 512-piece limit.
    texts = ["é " + "\u3000".join(["moravian"] * 300), "é moravian\u3000moravian", "plain words"]
    import oneclaw_search.data.embedding.word_sums as word_sums

    pooled = mocker.spy(word_sums.WordSums, "encode")
    vectors = StaticEmbedder().embed(texts)
    assert pooled.spy_return[1] == [0]  # the first text is left to the tokenizer, the others pooled by words
    assert np.array_equal(vectors, StaticModel.from_pretrained(str(MODEL_DIR)).encode(texts, use_multiprocessing=False))
