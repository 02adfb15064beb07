"""Compares two ways to split message text for the keyword index, on the synthetic corpus:
tantivy's regex tokenizer doing CJK characters and camelCase humps itself, against tantivy's
simple tokenizer after the Python pre-pass the index uses (data/text/analyzer.py: CJK spaced
apart, camelCase parts as a field of their own). Both stem with tantivy's Snowball stemmer.

    python tests/benchmarks/bench_analyzer.py [--messages 50000] [--runs 5]

Prints the median, minimum and maximum µs per message of indexing each way (documents made and
written, commit included), and how often PyStemmer and tantivy's stemmer disagree on the corpus's words.
Then what every search counts in a few hundred candidates and the turns beside them: a query's terms
and each text's length. The package's TermCounter (only the words that may stem to a term are
stemmed, in batches of 600 texts) against the words analyzer run over every text, µs per message
for a few queries, and whether every bag agrees.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import Stemmer
import tantivy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic_corpus import synthetic_corpus  # noqa: E402

from oneclaw_search.data.text.analyzer import (  # noqa: E402
    LONGEST_TOKEN,
    analyze,
    name_parts,
    spaced,
    text_terms,
    words_analyzer,
)
from oneclaw_search.data.text.term_counts import TermCounter  # noqa: E402
from oneclaw_search.domain.text_evidence import bag_of  # noqa: E402

COUNTED_QUERIES = ("sushi restaurant tokyo", "meeting", "database migration plan", "ecole", "東京", "api key")
BATCH = 600  # about the texts one search counts: candidates, the turns beside them, session titles

_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"
REGEX = rf"[{_CJK}]|\p{{Lu}}*[^\W_\p{{Lu}}{_CJK}]+|\p{{Lu}}+"  # CJK alone, camelCase cut at humps


def regex_analyzer() -> tantivy.TextAnalyzer:
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(REGEX)).filter(tantivy.Filter.remove_long(LONGEST_TOKEN))
            .filter(tantivy.Filter.lowercase()).filter(tantivy.Filter.ascii_fold())
            .filter(tantivy.Filter.stemmer("english")).build())


def index_seconds(texts: list[str], analyzer: tantivy.TextAnalyzer, prepass: bool) -> float:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", tokenizer_name="words", index_option="position")
    builder.add_text_field("parts", tokenizer_name="words", index_option="freq")
    index = tantivy.Index(builder.build(), path=tempfile.mkdtemp())
    index.register_tokenizer("words", analyzer)
    writer = index.writer(heap_size=256_000_000, num_threads=2)
    started = time.perf_counter()
    for text in texts:
        document = tantivy.Document()
        document.add_text("body", spaced(text) if prepass else text)
        if prepass:
            document.add_text("parts", name_parts(text))
        writer.add_document(document)
    writer.commit()
    writer.wait_merging_threads()
    return time.perf_counter() - started


def stemmer_disagreements(texts: list[str]) -> tuple[int, int]:
    """(words on which PyStemmer and tantivy's stemmer differ, distinct ASCII words checked)."""
    words = sorted({w for text in texts for w in re.findall(r"[a-z]+", text.lower())})
    ours, theirs = Stemmer.Stemmer("english"), words_analyzer()
    return sum(ours.stemWord(w) != (theirs.analyze(w) or [w])[0] for w in words), len(words)


def count_micros(texts: list[str], count) -> float:
    """µs per text of counting every query's terms in `texts`, a batch at a time."""
    started = time.perf_counter()
    for query in COUNTED_QUERIES:
        terms = list(dict.fromkeys(analyze(query)))
        for at in range(0, len(texts), BATCH):
            count(terms, texts[at:at + BATCH])
    return (time.perf_counter() - started) / len(texts) / len(COUNTED_QUERIES) * 1e6


def analyzed(terms: list[str], texts: list[str]) -> list:
    return [bag_of(text_terms(text), terms) for text in texts]


def counted(terms: list[str], texts: list[str]) -> list:
    return TermCounter(terms).bags(texts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    texts = [m.content for m in synthetic_corpus(args.messages, max(args.messages // 100, 1), 0, int(time.time() * 1000))[1]]
    for name, analyzer, prepass in (("regex tokenizer", regex_analyzer(), False),
                                    ("simple tokenizer + Python pre-pass", words_analyzer(), True)):
        runs = [index_seconds(texts, analyzer, prepass) / len(texts) * 1e6 for _ in range(args.runs)]
        print(f"{name:<36} median {statistics.median(runs):6.1f} µs/message (min {min(runs):.1f}, max {max(runs):.1f})")
    differ, checked = stemmer_disagreements(texts)
    print(f"PyStemmer vs tantivy's stemmer: {differ} of {checked} distinct words stem differently")
    for name, count in (("TermCounter (batched, C searches)", counted), ("words analyzer over every text", analyzed)):
        runs = [count_micros(texts, count) for _ in range(args.runs)]
        print(f"{name:<36} median {statistics.median(runs):6.2f} µs/message (min {min(runs):.2f}, max {max(runs):.2f})")
    differ = sum(counted(terms, [text]) != analyzed(terms, [text]) for query in COUNTED_QUERIES
                 for terms in [list(dict.fromkeys(analyze(query)))] for text in texts)
    print(f"bags that differ: {differ} of {len(texts) * len(COUNTED_QUERIES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
