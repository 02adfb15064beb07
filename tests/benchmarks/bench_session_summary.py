"""Measures the extractive session summary: ROUGE against LoCoMo's own session summaries, precision and
recall of decisions and open items on hand-labelled turns, and the time to summarise a long session.
With sumy installed, its LexRank, TextRank and LSA summaries stand beside the prose summary. With
--llm-base-url, a chat model behind an OpenAI-compatible server (a local one: docs/tool-reference.md,
get_session_summary) summarises the first --llm-sessions sessions too, its ROUGE and seconds per session
printed beside the extractive summary's on the same sessions.

    python tests/benchmarks/bench_session_summary.py [--json FILE] [--claude-history REPO]
        [--llm-base-url URL --llm-model NAME --llm-sessions N]

--claude-history names a clone (or bare mirror) of randlee/claude-history: its Claude Code transcripts,
labelled in session_summary_claude_code.json, join the labelled precision and recall.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import claude_code_sessions  # beside this script, whose folder is on sys.path

from oneclaw_search.data.summaries.keyphrases import YakeTopics
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.prose_summary import NOVELTY, prose_summary
from oneclaw_search.domain.search_terms import index_terms
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Transcript
from oneclaw_search.domain.stopwords import STOPWORDS
from oneclaw_search.domain.summary_cues import sentences as cue_sentences

# CC BY-NC data: read where it lies, never copied into this repository.
DATASET = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo" / "locomo10-dev.json"
LABELS = Path(__file__).with_name("session_summary_labels.json")
CODING = Path(__file__).with_name("session_summary_coding.json")  # coding sessions written for this benchmark, with labels
RUNS, LONG_SESSION = 7, 1000
# What a topic must not be alone, and what it must be (issue: "never a stop word, a filler verb or an
# interjection"; "phrases or names"): this benchmark's own list, kept apart from the summarizer's filter.
FILLER_WORDS = frozenset([
    "oh", "wow", "hey", "hi", "hello", "yeah", "yes", "yep", "no", "nope", "ok", "okay", "thanks", "thank",
    "great", "cool", "awesome", "amazing", "nice", "lol", "haha", "hmm", "um", "uh", "well", "really",
    "totally", "sure", "glad", "love", "lovely", "good", "today", "yesterday", "tomorrow", "tonight", "went",
    "go", "going", "got", "get", "said", "say", "think", "thought", "know", "like", "want", "feel", "felt",
    "made", "make", "thing", "things", "stuff", "lot", "way", "time", "day", "pretty", "super", "gonna",
    "kind", "also", "just"
])
_TOPIC_WORD = re.compile(r"\w+")


class HistoryVocabulary:
    """Document frequencies over one conversation's turns, stemmed as the keyword index stems."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.rows = len(texts)
        self._held = Counter(term for text in texts for term in set(index_terms(text, stem)))

    def stem(self, word: str) -> str:
        return stem(word)

    def frequency(self, term: str) -> int:
        return self._held[term]

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        return {term: self._held[term] for term in terms}

    def spellings_near(self, word: str) -> set[str]:
        return set()


def sessions(sample: dict) -> dict[int, Transcript]:
    conv = sample["conversation"]
    found = {}
    for n in sorted(int(m[1]) for key in conv if (m := re.fullmatch(r"session_(\d+)", key))):
        turns = tuple(Turn(t["dia_id"], "USER" if t["speaker"] == conv["speaker_a"] else "AI_RESPONSE", t["text"], i)
                      for i, t in enumerate(conv[f"session_{n}"]))
        found[n] = Transcript(SessionInfo(f"{sample['sample_id']}:S{n}", f"Session {n}", 0, len(turns)), turns)
    return found


def rouge_pair(scorer: Any, said: str, reference: str) -> tuple[float, float]:
    """ROUGE-1 and ROUGE-L F1 by Google's reference implementation (rouge-score)."""
    scores = scorer.score(reference, said)
    return scores["rouge1"].fmeasure, scores["rougeL"].fmeasure


def rouge(samples: list[dict]) -> dict[str, dict[str, float]]:
    from rouge_score import rouge_scorer  # benchmark-only: pip install rouge-score

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    scores: dict[str, list[tuple[float, float]]] = {"extractive, YAKE topics (shipped)": [], "extractive": [],
                                                    "extractive+vocabulary": [], "lead (same length)": []}
    yake_topics = YakeTopics()
    for sample in samples:
        transcripts = sessions(sample)
        vocabulary = HistoryVocabulary([t.content for s in transcripts.values() for t in s.turns])
        methods = {"extractive, YAKE topics (shipped)": ExtractiveSummarizer(vocabulary, vocabulary.rows, topics=yake_topics),
                   "extractive": ExtractiveSummarizer(), "extractive+vocabulary": ExtractiveSummarizer(vocabulary, vocabulary.rows)}
        for n, transcript in transcripts.items():
            reference = sample["session_summary"].get(f"session_{n}_summary", "")
            if not reference.strip():
                continue
            for name, summarizer in methods.items():
                digest = summarizer.summarize(transcript)
                said = " ".join(digest.key_topics + digest.key_decisions)
                scores[name].append(rouge_pair(scorer, said, reference))
            lead = " ".join(" ".join(t.content for t in transcript.turns).split()[: len(said.split())])
            scores["lead (same length)"].append(rouge_pair(scorer, lead, reference))
    return {name: {"sessions": len(pairs),
                   "rouge1_mean": statistics.mean(p[0] for p in pairs), "rouge1_median": statistics.median(p[0] for p in pairs),
                   "rougeL_mean": statistics.mean(p[1] for p in pairs), "rougeL_median": statistics.median(p[1] for p in pairs)}
            for name, pairs in scores.items()}


def with_model(samples: list[dict], base_url: str, model: str, count: int) -> dict[str, dict[str, float]]:
    """ROUGE of a chat model's topics + decisions and the extractive ones on the first `count` sessions,
    and the model's seconds per session; how many times it fell back to the extractive summary."""
    from rouge_score import rouge_scorer

    from oneclaw_search.data.summaries.llm_summarizer import OpenAICompatibleSummarizer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    extractive = ExtractiveSummarizer()
    llm = OpenAICompatibleSummarizer(base_url, model, "none", extractive, timeout_seconds=600, token_budget=1500,
                                     sampling={"temperature": 0, "seed": 7})  # greedy: the same figures each run
    pairs = [(transcript, sample["session_summary"].get(f"session_{n}_summary", ""))
             for sample in samples for n, transcript in sessions(sample).items()]
    pairs = [(transcript, reference) for transcript, reference in pairs if reference.strip()][:count]
    scores: dict[str, list[tuple[float, float]]] = {"extractive": [], f"llm:{model}": []}
    seconds, fell_back = [], 0
    for transcript, reference in pairs:
        started = time.perf_counter()
        digest = llm.summarize(transcript)
        seconds.append(time.perf_counter() - started)
        fell_back += not digest.method.startswith("llm:")
        for name, made in (("extractive", extractive.summarize(transcript)), (f"llm:{model}", digest)):
            scores[name].append(rouge_pair(scorer, " ".join(made.key_topics + made.key_decisions), reference))
    return {name: {"sessions": len(rows), "rouge1_mean": statistics.mean(r[0] for r in rows),
                   "rougeL_mean": statistics.mean(r[1] for r in rows),
                   **({"seconds_median": statistics.median(seconds), "fell_back": fell_back} if name != "extractive" else {})}
            for name, rows in scores.items()}


NOVELTY_GRID = (0.0, 0.25, 0.5, 1.0)


def prose(samples: list[dict]) -> dict[str, Any]:
    """ROUGE-1 F of the prose summary (`summary`) against LoCoMo dev's session summaries, as the issue
    scores it (rouge-score: lower-case words, stop words kept, no stemming). NOVELTY is chosen by
    leave-one-conversation-out cross-validation over NOVELTY_GRID; beside it, the session's first 120 words."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1"])
    by_fold: dict[str, dict[float, list[float]]] = {}
    lead: list[float] = []
    for sample in samples:
        transcripts = sessions(sample)
        vocabulary = HistoryVocabulary([t.content for s in transcripts.values() for t in s.turns])
        summarizer = ExtractiveSummarizer(vocabulary, vocabulary.rows)
        fold = by_fold.setdefault(sample["sample_id"], {novelty: [] for novelty in NOVELTY_GRID})
        for n, transcript in transcripts.items():
            reference = sample["session_summary"].get(f"session_{n}_summary", "")
            if not reference.strip():
                continue
            for novelty in NOVELTY_GRID:
                said = prose_summary(transcript.turns, summarizer.terms, summarizer.weights, novelty)
                fold[novelty].append(scorer.score(reference, said)["rouge1"].fmeasure)
            lead.append(scorer.score(reference, " ".join(" ".join(t.content for t in transcript.turns).split()[:120]))["rouge1"].fmeasure)
    folds = {}
    for held in by_fold:
        training = [score for name, fold in by_fold.items() if name != held for score in fold[NOVELTY_GRID[0]]]
        chosen = max(NOVELTY_GRID, key=lambda novelty: statistics.mean(
            score for name, fold in by_fold.items() if name != held for score in fold[novelty]))
        folds[held] = {"novelty": chosen, "rouge1": statistics.mean(by_fold[held][chosen]), "training_sessions": len(training)}
    shipped = [score for fold in by_fold.values() for score in fold[NOVELTY]] if NOVELTY in NOVELTY_GRID else []
    return {"folds": folds, "cross_validated": statistics.mean(row["rouge1"] for row in folds.values()),
            "worst_fold": min(row["rouge1"] for row in folds.values()),
            "shipped_novelty": NOVELTY, "shipped": statistics.mean(shipped) if shipped else None,
            "first_120_words": statistics.mean(lead)}


class _SentenceTokenizer:
    """sumy's tokenizer interface over the summary's own sentence splitter (sumy's needs NLTK data this
    machine cannot download), so both summaries read the same sentences."""

    language = "english"

    def to_sentences(self, text: str) -> list[str]:
        return list(cue_sentences(text))

    def to_words(self, sentence: str) -> list[str]:
        return _TOPIC_WORD.findall(sentence)


def library_prose(samples: list[dict]) -> dict[str, dict[str, float]]:
    """The prose summary's counterpart from a summarization library (sumy: LexRank, TextRank, LSA), given
    the same 120-word budget: as many of its best sentences as fit. ROUGE-1 per conversation, mean, worst."""
    from rouge_score import rouge_scorer
    from sumy.parsers.plaintext import PlaintextParser
    from sumy.summarizers.lex_rank import LexRankSummarizer
    from sumy.summarizers.lsa import LsaSummarizer
    from sumy.summarizers.text_rank import TextRankSummarizer

    scorer = rouge_scorer.RougeScorer(["rouge1"])
    rows = {}
    for name, summarizer in (("sumy LexRank", LexRankSummarizer()), ("sumy TextRank", TextRankSummarizer()),
                             ("sumy LSA", LsaSummarizer())):
        folds: dict[str, list[float]] = {}
        for sample in samples:
            for n, transcript in sessions(sample).items():
                reference = sample["session_summary"].get(f"session_{n}_summary", "")
                if reference.strip():
                    text = "\n".join(turn.content for turn in transcript.turns)
                    document = PlaintextParser.from_string(text, _SentenceTokenizer()).document
                    said = _fitting(lambda count, d=document, s=summarizer: [str(x) for x in s(d, count)])
                    folds.setdefault(sample["sample_id"], []).append(scorer.score(reference, said)["rouge1"].fmeasure)
        means = {fold: statistics.mean(scores) for fold, scores in folds.items()}
        rows[name] = {"folds": means, "mean": statistics.mean(means.values()), "worst": min(means.values())}
    return rows


def _fitting(best: Any, budget: int = 120) -> str:
    """The most of a summarizer's best sentences that fit in `budget` words."""
    fitting = ""
    for count in range(1, 40):
        said = " ".join(best(count))
        if len(said.split()) > budget:
            break
        fitting = said
    return fitting


def topic_shapes(samples: list[dict]) -> dict[str, dict[str, float]]:
    """Of every topic given for LoCoMo dev's sessions: the share that is a stop word or filler alone, and
    the share that is a phrase of two to five words or a name (one capitalised word)."""
    methods = {"YAKE topics (shipped)": ExtractiveSummarizer(topics=YakeTopics()), "word tally (before)": ExtractiveSummarizer()}
    found: dict[str, list[str]] = {name: [] for name in methods}
    for sample in samples:
        for transcript in sessions(sample).values():
            for name, summarizer in methods.items():
                found[name] += summarizer.summarize(transcript).key_topics
    return {name: {"topics": len(topics), "per_session": len(topics) / sum(len(sessions(s)) for s in samples),
                   "filler_alone": sum(map(_filler_alone, topics)) / max(len(topics), 1),
                   "phrase_or_name": sum(map(_phrase_or_name, topics)) / max(len(topics), 1)}
            for name, topics in found.items()}


def _filler_alone(topic: str) -> bool:
    return all(word.lower() in FILLER_WORDS or word.lower() in STOPWORDS for word in _TOPIC_WORD.findall(topic))


def _phrase_or_name(topic: str) -> bool:
    words = _TOPIC_WORD.findall(topic)
    return 2 <= len(words) <= 5 or (len(words) == 1 and topic[:1].isupper())


def labelled(samples: list[dict], claude_history: Path | None = None) -> dict[str, dict[str, dict[str, float]]]:
    """Micro-averaged precision and recall of the turns items come from, against hand-labelled turns: LoCoMo
    dev sessions (labels by dia_id in LABELS), coding sessions written for this benchmark (CODING, text and
    labels both ours), real Claude Code transcripts when `claude_history` is given, and all together."""
    cases = {source: [(ExtractiveSummarizer(vocabulary, vocabulary.rows).traced(transcript), label)
                      for transcript, label, vocabulary in found]
             for source, found in labelled_sessions(samples, claude_history).items()}
    cases["all"] = [pair for pairs in cases.values() for pair in pairs]
    return {source: _precision_recall(pairs) for source, pairs in cases.items()}


def labelled_sessions(samples: list[dict], claude_history: Path | None = None) -> dict[str, list[tuple[Transcript, dict, Any]]]:
    """Per source, each labelled session's transcript, its labels and its history's vocabulary."""
    by_id = {sample["sample_id"]: sample for sample in samples}
    cases: dict[str, list[tuple[Transcript, dict, Any]]] = {"LoCoMo dev": [], "coding (ours)": []}
    for label in json.loads(LABELS.read_text())["sessions"]:
        transcripts = sessions(by_id[label["sample_id"]])
        vocabulary = HistoryVocabulary([t.content for s in transcripts.values() for t in s.turns])
        cases["LoCoMo dev"].append((transcripts[label["session"]], label, vocabulary))
    if CODING.exists():
        coding = json.loads(CODING.read_text())["sessions"]
        vocabulary = HistoryVocabulary([turn["text"] for session in coding for turn in session["turns"]])
        for session in coding:
            turns = tuple(Turn(t["id"], t["role"], t["text"], at) for at, t in enumerate(session["turns"]))
            cases["coding (ours)"].append((Transcript(SessionInfo(session["id"], session["title"], 0, len(turns)), turns),
                                           session, vocabulary))
    if claude_history is not None:
        loaded = claude_code_sessions.load(claude_history)
        vocabulary = HistoryVocabulary([turn.content for _, transcript in loaded for turn in transcript.turns])
        cases["Claude Code"] = [(transcript, label, vocabulary)
                                for (_, transcript), label in zip(loaded, claude_code_sessions.labels(), strict=True)]
    return cases


def _precision_recall(pairs: list[tuple[Any, dict]]) -> dict[str, dict[str, float]]:
    hits = {kind: Counter[str]() for kind in ("decisions", "open")}
    for traced, label in pairs:
        for kind, items in (("decisions", traced.key_decisions), ("open", traced.unresolved)):
            found, gold = {item.turn_id for item in items}, set(label[kind])
            hits[kind].update(found=len(found), gold=len(gold), right=len(found & gold))
    return {kind: {"sessions": len(pairs), "labelled": c["gold"], "found": c["found"],
                   "precision": c["right"] / c["found"] if c["found"] else 0.0,
                   "recall": c["right"] / c["gold"] if c["gold"] else 0.0} for kind, c in hits.items()}


def long_session(seed: int, count: int = LONG_SESSION) -> Transcript:
    """Synthetic turns of about forty words from a two-thousand-word lexicon, some questions and decisions."""
    chance = random.Random(seed)
    lexicon = [f"{chance.choice('bcdfgklmnprst')}{chance.choice('aeiou')}{chance.choice('lnrst')}{n}x" for n in range(2000)]
    glue = ["the", "and", "we", "it", "is", "to", "of", "for"]
    turns = []
    for i in range(count):
        text = " ".join(chance.choice(lexicon if chance.random() < 0.6 else glue) for _ in range(40))
        tail = chance.choice(["?", ".", ". Let's use " + chance.choice(lexicon) + " for now.", ". TODO: check it."])
        turns.append(Turn(f"t{i}", "USER" if i % 2 == 0 else "AI_RESPONSE", text.capitalize() + tail, i))
    return Transcript(SessionInfo("long", "Long", 0, count), tuple(turns))


def timing() -> dict[str, float]:
    """Each run summarises a session never seen before, so no cache of words or sentences helps it."""
    runs: dict[str, list[float]] = {"no vocabulary": [], "vocabulary": [], "YAKE topics (shipped)": []}
    for seed in range(RUNS):
        for at, name in enumerate(runs):
            transcript = long_session(seed * 3 + at)
            vocabulary = HistoryVocabulary([t.content for t in transcript.turns])
            summarizer = {"no vocabulary": ExtractiveSummarizer(), "vocabulary": ExtractiveSummarizer(vocabulary, vocabulary.rows),
                          "YAKE topics (shipped)": ExtractiveSummarizer(vocabulary, vocabulary.rows, topics=YakeTopics())}[name]
            start = time.perf_counter()
            summarizer.summarize(transcript)
            runs[name].append(time.perf_counter() - start)
    return {name: statistics.median(times) * 1000 for name, times in runs.items()}


def through_the_tool(summarizer: str = "extractive") -> dict[str, float]:
    """get_session_summary on a history holding one 1,000-turn session: the first call summarises and
    stores, later calls read the side index's cache (median of the later calls). With "local", the
    calls also ask the local model in the background; then, once it made its summary, the calls that
    read it (median)."""
    import tempfile

    from oneclaw_search.data.history.history_writer import HistoryWriter, NewMessage, NewSession
    from oneclaw_search.data.history.schema import open_writable
    from oneclaw_search.di import close_container, create_injector
    from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase, SummaryRequest
    from oneclaw_search.tools import ToolExecutionEngine

    transcript = long_session(99)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.db"
        database = open_writable(path)
        HistoryWriter(database, None).write([NewSession("long", "Long", 0)],
                                            [NewMessage(t.id, "long", t.role, t.content, t.created_at) for t in transcript.turns], [])
        database.close()
        container = create_injector(path, embedder=None, summarizer=summarizer)
        engine = container.get(ToolExecutionEngine)
        times = [_timed_call(engine) for _ in range(RUNS + 1)]
        figures = {"first call": times[0] * 1000, "cached": statistics.median(times[1:]) * 1000}
        if summarizer == "local":
            started = time.perf_counter()
            container.get(GetSessionSummaryUseCase).make_later_now(SummaryRequest("long"))
            figures["model summary made (s)"] = time.perf_counter() - started
            figures["model summary cached"] = statistics.median(_timed_call(engine) for _ in range(RUNS)) * 1000
        close_container(container)
    return figures


def _timed_call(engine: Any) -> float:
    start = time.perf_counter()
    engine.execute_tool("get_session_summary", {"session_id": "long"})
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--claude-history", type=Path, help="a clone or bare mirror of randlee/claude-history")
    parser.add_argument("--llm-base-url", help="an OpenAI-compatible server (…/v1) whose model summarises too")
    parser.add_argument("--llm-model", default="local", help="the model name to ask the server for")
    parser.add_argument("--llm-sessions", type=int, default=10, help="LoCoMo sessions the model summarises")
    args = parser.parse_args()
    if find_spec("rouge_score") is None:
        print("the ROUGE figures need rouge-score: pip install rouge-score", file=sys.stderr)
        return 2
    if not DATASET.exists():
        print(f"LoCoMo dev split not found at {DATASET}; see ../shared/README.md", file=sys.stderr)
        return 2
    samples = json.loads(DATASET.read_text())
    figures = {"rouge": rouge(samples), "prose": prose(samples), "topics": topic_shapes(samples),
               "labelled": labelled(samples, args.claude_history),
               "ms_per_1000_turns": timing(), "tool_ms_1000_turns": through_the_tool()}
    print(f"{'method':<24}{'sessions':>9}{'R-1 mean':>10}{'R-1 med':>9}{'R-L mean':>10}{'R-L med':>9}")
    for name, row in figures["rouge"].items():
        print(f"{name:<24}{row['sessions']:>9}{row['rouge1_mean']:>10.3f}{row['rouge1_median']:>9.3f}"
              f"{row['rougeL_mean']:>10.3f}{row['rougeL_median']:>9.3f}")
    summary = figures["prose"]
    print("\nprose summary (`summary`), ROUGE-1 F, novelty chosen on the other conversations: "
          + ", ".join(f"{name} {row['rouge1']:.3f} ({row['novelty']})" for name, row in summary["folds"].items()))
    print(f"  cross-validated mean {summary['cross_validated']:.3f}, worst fold {summary['worst_fold']:.3f}; shipped novelty "
          f"{summary['shipped_novelty']}: {summary['shipped'] if summary['shipped'] is None else round(summary['shipped'], 3)};"
          f" the session's first 120 words {summary['first_120_words']:.3f}")
    print(f"\n{'topics':<24}{'count':>7}{'a session':>10}{'filler alone':>14}{'phrase or name':>16}")
    for name, row in figures["topics"].items():
        print(f"{name:<24}{row['topics']:>7}{row['per_session']:>10.2f}{row['filler_alone']:>14.3f}{row['phrase_or_name']:>16.3f}")
    print(f"\n{'labelled sessions':<18}{'items':<11}{'sessions':>9}{'labelled':>9}{'found':>7}{'precision':>11}{'recall':>8}")
    for source, kinds in figures["labelled"].items():
        for kind, row in kinds.items():
            print(f"{source:<18}{kind:<11}{row['sessions']:>9}{row['labelled']:>9}{row['found']:>7}"
                  f"{row['precision']:>11.2f}{row['recall']:>8.2f}")
    print(f"\n{LONG_SESSION}-turn session, median of {RUNS}: "
          + ", ".join(f"{name} {ms:.1f} ms" for name, ms in figures["ms_per_1000_turns"].items()))
    print("through get_session_summary: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in figures["tool_ms_1000_turns"].items()))
    if find_spec("sumy") is not None:  # benchmark-only: pip install sumy
        figures["library_prose"] = library_prose(samples)
        for name, row in figures["library_prose"].items():
            print(f"  {name:<14} ROUGE-1 mean {row['mean']:.3f}, worst fold {row['worst']:.3f}: "
                  + ", ".join(f"{fold} {score:.3f}" for fold, score in row["folds"].items()))
    if args.llm_base_url:
        figures["llm"] = with_model(samples, args.llm_base_url, args.llm_model, args.llm_sessions)
        print(f"\nthe first {args.llm_sessions} LoCoMo dev sessions, topics + decisions against session_summary:")
        for name, row in figures["llm"].items():
            extra = f", {row['seconds_median']:.1f} s a session, fell back {row['fell_back']} times" if "fell_back" in row else ""
            print(f"  {name:<32} R-1 {row['rouge1_mean']:.3f}  R-L {row['rougeL_mean']:.3f}{extra}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
