"""A deterministic, chat-like synthetic history of an AI agent, for the scale benchmark.

synthetic_corpus(messages, sessions, chunks, now_ms, seed) -> (sessions, messages, chunks) over the
365 days before now_ms. Words follow a Zipf law over a few hundred common English words and a
~20K long tail of generated words and names, so most distinct words are rare, as in real text.
Mixed in: code (~10 %), JSON tool calls (~5 %), URLs, UUIDs, git hashes, accented European text
(~5 %), CJK (~5 %) and a little Korean. What QUERIES look for is planted on a fixed schedule
(PLANTS), so every query but the no-hit probe has hits at a known rate, whatever the seed.
"""
from __future__ import annotations

import math
import random
from datetime import date, timedelta
from itertools import pairwise

import numpy as np

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.domain.models import MemoryChunk

DAY_MS = 86_400_000
YEAR_MS = 365 * DAY_MS
CORPUS_VERSION = 1  # bump when the output changes, so cached benchmark databases are rebuilt
FUNCTION_WORDS = ["the", "of", "and", "to", "a", "in", "is", "it", "you", "that", "was", "for", "on", "are", "with", "as", "i", "his", "they", "be", "at", "one", "have", "this", "from", "or", "had", "by", "not", "but", "what", "all", "were", "we", "when", "your", "can", "said", "there", "use", "an", "each", "which", "she", "do", "how", "their", "if", "will", "up", "other", "about", "out", "many", "then", "them", "these", "so", "some", "her", "would", "make", "like", "him", "into", "time", "has", "look", "two", "more", "write", "go", "see", "number", "no", "way", "could", "people", "my", "than", "first", "been", "call", "who", "its", "now", "find", "long", "down", "day", "did", "get", "come", "made", "may", "part", "over", "new", "just", "also", "back", "after", "only", "think", "know", "take", "year", "good", "give", "most", "very", "need", "here", "should", "because", "still", "why", "ask"]
CHAT_WORDS = ["please", "thanks", "sure", "okay", "yes", "maybe", "let's", "tomorrow", "yesterday", "today", "week", "weekend", "morning", "evening", "tonight", "meeting", "calendar", "reminder", "birthday", "gift", "dinner", "lunch", "restaurant", "booking", "hotel", "flight", "trip", "travel", "station", "museum", "budget", "invoice", "payment", "rent", "grocery", "project", "deadline", "review", "plan", "notes", "idea", "question", "answer", "problem", "issue", "bug", "fix", "test", "build", "deploy", "release", "database", "migration", "schema", "index", "query", "table", "column", "server", "client", "cache", "latency", "timeout", "retry", "error", "log", "function", "class", "method", "variable", "file", "folder", "branch", "commit", "merge", "kotlin", "python", "android", "gradle", "docker", "api", "json", "config", "setting", "memory", "search", "history", "session", "message", "agent", "model", "prompt", "token", "tool", "result", "summary", "draft", "email", "doctor", "appointment", "family", "friend", "coffee", "weather", "train", "ticket", "price", "order", "delivery"]
TECH = ["search", "history", "session", "message", "memory", "index", "query", "result", "token", "cache", "config", "user", "agent", "tool", "title", "score"]
MODULES = ["memory", "search", "session", "tool", "agent", "data", "ui", "sync"]
TOPICS = ["Trip planning", "Dinner plans", "Database migration", "Kotlin refactor", "Budget review", "Team meeting",
          "Memory index", "Search tuning", "Birthday gift", "Flight booking", "Bug triage", "Release notes"]
ACCENTED = ["café", "über", "école", "niño", "garçon", "déjà", "straße", "müde", "señor", "mañana", "crème", "brûlée", "résumé", "naïve", "façade", "jalapeño", "año", "fiancée", "Zürich", "München", "Málaga", "Björn", "schön", "Grüße", "Mädchen", "größer", "noël", "été", "forêt", "hôtel", "théâtre", "corazón", "canción", "pequeño", "español", "français", "le", "la", "les", "et", "est", "und", "der", "die", "ist", "el", "que", "una", "muy"]
CJK = ["東京で寿司を食べた。", "数据库迁移已经完成。", "明日の会議は十時からです。", "我们明天去北京出差。",
       "東京駅の近くのホテルを予約しました。", "这个函数返回搜索结果。", "週末に京都へ行きます。", "请帮我检查一下日志。",
       "東京の天気はどうですか。", "记忆索引需要重建。", "新しいプロジェクトの計画を立てる。", "会话标题已更新。"]
KOREAN = ["내일 회의는 몇 시예요?", "서울에서 비빔밥을 먹었어요.", "데이터베이스 마이그레이션 완료."]
PLANTED_UUID = "3f2c9a7e-51b4-4d2e-9c1a-7b8e2d4f6a10"
NO_HIT, RARE, FRESH = "zyxwvutq", "quokka", "kookaburra"  # FRESH only in append_messages
# (period, offset, text): message i carries text when i % period == offset; small offsets give
# even a smoke-sized history one hit of each.
PLANTS = [
    (397, 5, "We found a great sushi restaurant near the station in Tokyo."),
    (509, 9, "Here is the database migration plan we agreed on."),
    (7919, 13, f"Did you see the {RARE} photos from Rottnest?"),
    (613, 17, "```kotlin\nval title = resolveSessionTitle(sessionId)\n```"),
    (701, 19, "see src/main/kotlin/com/oneclaw/memory/MemoryIndexDao.kt line 42"),
    (10007, 23, '{"tool": "read_file", "id": "' + PLANTED_UUID + '", "arguments": {"path": "notes.md"}}'),
    (1201, 29, "set search.max_results to 25 in the config"),
]
CHUNK_PLANTS = [(97, 3, PLANTS[0][2]), (89, 5, PLANTS[1][2]), (1009, 7, PLANTS[2][2]), (31, 11, CJK[0]),
                (37, 13, "Déjeuner au café près de l'école, puis le musée.")]
BENCH_QUERIES = (
    ("multi-keyword", "sushi restaurant tokyo"), ("common word", "meeting"), ("rare word", RARE),
    ("quoted phrase", '"database migration plan"'), ("identifier", "resolveSessionTitle"),
    ("path fragment", "memory/MemoryIndexDao.kt"), ("uuid prefix", PLANTED_UUID[:13]),
    ("dotted key", "search.max_results"), ("unaccented", "ecole"), ("cjk", "東京"), ("no hit", NO_HIT),
    ("long", "remind me what we decided about the database migration plan last week"),
)
QUERIES = tuple(query for _, query in BENCH_QUERIES)


def _long_tail(count: int) -> list[str]:
    """Pronounceable made-up words, every sixth a capitalised name; no q, x or y, so none can be a probe."""
    rng = random.Random(1)  # the language stays fixed; the seed varies only what is said in it
    onsets = ["", *"bcdfghjlmnprstvwz", "br", "ch", "dr", "fl", "gr", "pl", "pr", "sh", "st", "th", "tr"]
    vowels, codas = ["a", "e", "i", "o", "u", "a", "e", "i", "o", "ea"], ["", "", "", "n", "r", "l", "s", "nd", "rk", "st"]
    seen, words = set(FUNCTION_WORDS + CHAT_WORDS), []
    while len(words) < count:
        syllables = rng.choices((1, 2, 3), weights=(2, 5, 3))[0]
        word = "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(syllables)) + rng.choice(codas)
        if len(word) > 2 and word not in seen:
            seen.add(word)
            words.append(word.capitalize() if len(words) % 6 == 0 else word)
    return words


def _zipf_table(size: int, slots: int = 1 << 21) -> np.ndarray:
    """Vocabulary positions, each repeated in proportion to 1/rank^1.05: uniform picks follow Zipf's law."""
    weights = 1 / np.arange(1, size + 1) ** 1.05
    copies = np.maximum(1, np.round(weights * slots / weights.sum())).astype(int)
    return np.repeat(np.arange(size, dtype=np.int32), copies)


VOCABULARY = FUNCTION_WORDS + CHAT_WORDS + _long_tail(20_000)
WORD_ARRAY, ZIPF_TABLE = np.array(VOCABULARY, dtype=object), _zipf_table(len(VOCABULARY))


class _Writer:
    """Text generators sharing one random stream."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._words: list[str] = []
        self._at = 0

    def words(self, count: int) -> list[str]:
        """Zipf-distributed words, drawn a million at a time: a Python call per word would triple the run time."""
        if self._at + count > len(self._words):
            picks = np.frombuffer(self.rng.randbytes(4 << 20), dtype="<u4") % len(ZIPF_TABLE)
            self._words = self._words[self._at:]
            self._words.extend(WORD_ARRAY[ZIPF_TABLE[picks]].tolist())
            self._at = 0
        self._at += count
        return self._words[self._at - count:self._at]

    def prose(self, length: int) -> str:
        words = self.words(length)
        for at in range(0, length, 11):
            words[at] = words[at].capitalize()
        for at in range(10, length - 1, 11):
            words[at] += "."
        return " ".join(words) + ("?" if self.rng.random() < 0.3 else ".")

    def length(self, user: bool) -> int:
        """Users write short turns, the assistant longer ones; both clipped to 5-120 words."""
        return min(120, max(5, int(self.rng.lognormvariate(math.log(12 if user else 35), 0.7))))

    def ident(self, camel: bool) -> str:
        parts = self.rng.sample(TECH, self.rng.randint(2, 3))
        return parts[0] + "".join(p.capitalize() for p in parts[1:]) if camel else "_".join(parts)

    def uuid(self) -> str:
        bits = f"{self.rng.getrandbits(128):032x}"
        return f"{bits[:8]}-{bits[8:12]}-4{bits[13:16]}-{bits[16:20]}-{bits[20:]}"

    def code(self) -> str:
        rng, key = self.rng, f"{self.rng.choice(TECH)}.{self.ident(False)}"
        if rng.random() < 0.5:
            snake, arg = self.ident(False), self.ident(False)
            return f'```python\ndef {snake}({arg}: str) -> list[str]:\n    return {arg}.get("{key}", [])\n```'
        path = f"src/main/kotlin/com/oneclaw/{rng.choice(MODULES)}/{self.ident(True).capitalize()}.kt"
        camel, other = self.ident(True), self.ident(True)
        return f'```kotlin\n// {path}\nval {camel} = settings.get("{key}")\nfun {other}(): Int = {camel}.size\n```'

    def extra(self) -> str:
        """What rides along with a message's prose: code, a tool call, another script, a link, or nothing."""
        rng, roll = self.rng, self.rng.random()
        if roll < 0.10:
            return self.code()
        if roll < 0.15:
            query = " ".join(self.words(rng.randint(1, 4)))
            arguments = f'{{"query": "{query}", "scope": "all"}}'
            return f'{{"tool": "search_history", "id": "{self.uuid()}", "arguments": {arguments}}}'
        if roll < 0.20:
            return " ".join(rng.choices(ACCENTED, k=rng.randint(4, 12))).capitalize() + "."
        if roll < 0.25:
            return "".join(rng.choices(CJK, k=rng.randint(1, 3)))
        if roll < 0.255:
            return rng.choice(KOREAN)
        if roll < 0.275:
            return f"https://github.com/oneclaw/{rng.choice(MODULES)}/pull/{rng.randint(1, 4000)}"
        if roll < 0.285:
            return f"fixed in commit {rng.getrandbits(160):040x}"
        return ""


def _session_sizes(rng: random.Random, messages: int, sessions: int) -> list[int]:
    """Random cut points: a few long sessions and many short ones, as in real use."""
    cuts = sorted(rng.sample(range(1, messages), min(sessions, messages) - 1)) if messages > 1 else []
    bounds = [0, *cuts, messages]
    sizes = [b - a for a, b in pairwise(bounds)]
    return sizes + [0] * (sessions - len(sizes))


def synthetic_corpus(messages: int, sessions: int, chunks: int, now_ms: int, seed: int = 7):
    """(list[NewSession], list[NewMessage], list[MemoryChunk]) spread over the year before now_ms."""
    writer, start = _Writer(seed), now_ms - YEAR_MS
    rng, session_rows, message_rows = writer.rng, [], []
    for s, size in enumerate(_session_sizes(writer.rng, messages, sessions)):
        at = start + rng.randrange(max(1, YEAR_MS - size * 600_000))
        title = f"{TOPICS[s % len(TOPICS)]} {rng.choice(CHAT_WORDS)}" if s % 53 != 1 else "Sushi restaurant in Tokyo"
        session_rows.append(NewSession(f"s{s:06}", title, at))
        for turn in range(size):
            i, user = len(message_rows), turn % 2 == 0
            parts = [writer.prose(writer.length(user)), writer.extra()]
            parts += [text for period, offset, text in PLANTS if i % period == offset]
            at = min(now_ms - 1, at + rng.randrange(20_000, 600_000))
            content = " ".join(part for part in parts if part)
            message_rows.append(NewMessage(f"m{i:08}", f"s{s:06}", "USER" if user else "AI_RESPONSE", content, at))
    return session_rows, message_rows, _chunks(writer, chunks, now_ms)


def _chunks(writer: _Writer, count: int, now_ms: int) -> list[MemoryChunk]:
    """Four in five are daily-log chunks dated within the year, the rest undated MEMORY.md paragraphs."""
    rng, today, rows = writer.rng, date.fromtimestamp(now_ms / 1000), []
    for i in range(count):
        parts = [writer.prose(rng.randint(8, 30)) for _ in range(rng.randint(1, 3))]
        parts += [text for period, offset, text in CHUNK_PLANTS if i % period == offset]
        age = rng.randrange(365)
        day = (today - timedelta(days=age)).isoformat() if i % 5 else None
        at = now_ms - age * DAY_MS
        rows.append(MemoryChunk(f"c{i:06}", "daily_log" if day else "long_term", day, " ".join(parts), None, at, at))
    return rows


def append_messages(count: int, session_ids: list[str], now_ms: int, seed: int = 8, first: int = 0) -> list[NewMessage]:
    """`count` new messages, newest of all, in existing sessions, numbered from `first`; each carries
    FRESH to prove it was indexed."""
    writer = _Writer(seed)
    return [
        NewMessage(f"x{first + i:07}", session_ids[i % len(session_ids)], "USER" if i % 2 == 0 else "AI_RESPONSE",
                   f"{writer.prose(writer.length(i % 2 == 0))} {FRESH}", now_ms - (count - i) * 1000)
        for i in range(count)
    ]
