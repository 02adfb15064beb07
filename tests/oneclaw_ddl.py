"""OneClaw's Room schema (version 1, identity 9a862db541b23c44221f9a687649d220), statement by statement.

Lets tests build a database exactly as the OneClaw app would, without this package's code, to
prove that such a file is searched as it is and that our own files match its tables.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

IDENTITY_HASH = "9a862db541b23c44221f9a687649d220"

ROOM_DDL = [
    "CREATE TABLE IF NOT EXISTS `agents` (`id` TEXT NOT NULL, `name` TEXT NOT NULL, `description` TEXT, `system_prompt` TEXT NOT NULL, `tool_ids` TEXT NOT NULL, `preferred_provider_id` TEXT, `preferred_model_id` TEXT, `temperature` REAL, `max_iterations` INTEGER, `is_built_in` INTEGER NOT NULL, `created_at` INTEGER NOT NULL, `updated_at` INTEGER NOT NULL, `web_search_enabled` INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(`id`))",
    "CREATE TABLE IF NOT EXISTS `providers` (`id` TEXT NOT NULL, `name` TEXT NOT NULL, `type` TEXT NOT NULL, `api_base_url` TEXT NOT NULL, `is_pre_configured` INTEGER NOT NULL, `is_active` INTEGER NOT NULL, `created_at` INTEGER NOT NULL, `updated_at` INTEGER NOT NULL, PRIMARY KEY(`id`))",
    "CREATE TABLE IF NOT EXISTS `models` (`id` TEXT NOT NULL, `display_name` TEXT, `provider_id` TEXT NOT NULL, `is_default` INTEGER NOT NULL, `source` TEXT NOT NULL, `context_window_size` INTEGER, PRIMARY KEY(`id`, `provider_id`), FOREIGN KEY(`provider_id`) REFERENCES `providers`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_models_provider_id` ON `models` (`provider_id`)",
    "CREATE TABLE IF NOT EXISTS `sessions` (`id` TEXT NOT NULL, `title` TEXT NOT NULL, `current_agent_id` TEXT NOT NULL, `message_count` INTEGER NOT NULL, `last_message_preview` TEXT, `is_active` INTEGER NOT NULL, `deleted_at` INTEGER, `created_at` INTEGER NOT NULL, `updated_at` INTEGER NOT NULL, `compacted_summary` TEXT, `compact_boundary_timestamp` INTEGER, `last_logged_message_id` TEXT, PRIMARY KEY(`id`))",
    "CREATE INDEX IF NOT EXISTS `index_sessions_updated_at` ON `sessions` (`updated_at`)",
    "CREATE INDEX IF NOT EXISTS `index_sessions_deleted_at` ON `sessions` (`deleted_at`)",
    "CREATE TABLE IF NOT EXISTS `messages` (`id` TEXT NOT NULL, `session_id` TEXT NOT NULL, `type` TEXT NOT NULL, `content` TEXT NOT NULL, `thinking_content` TEXT, `tool_call_id` TEXT, `tool_name` TEXT, `tool_input` TEXT, `tool_output` TEXT, `tool_status` TEXT, `tool_duration_ms` INTEGER, `token_count_input` INTEGER, `token_count_output` INTEGER, `model_id` TEXT, `provider_id` TEXT, `created_at` INTEGER NOT NULL, `citations` TEXT, PRIMARY KEY(`id`), FOREIGN KEY(`session_id`) REFERENCES `sessions`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_messages_session_id` ON `messages` (`session_id`)",
    "CREATE INDEX IF NOT EXISTS `index_messages_created_at` ON `messages` (`created_at`)",
    "CREATE TABLE IF NOT EXISTS `app_settings` (`key` TEXT NOT NULL, `value` TEXT NOT NULL, PRIMARY KEY(`key`))",
    "CREATE TABLE IF NOT EXISTS `memory_index` (`id` TEXT NOT NULL, `source_type` TEXT NOT NULL, `source_date` TEXT, `chunk_text` TEXT NOT NULL, `embedding` BLOB, `created_at` INTEGER NOT NULL, `updated_at` INTEGER NOT NULL, PRIMARY KEY(`id`))",
    "CREATE TABLE IF NOT EXISTS `scheduled_tasks` (`id` TEXT NOT NULL, `name` TEXT NOT NULL, `agent_id` TEXT NOT NULL, `prompt` TEXT NOT NULL, `schedule_type` TEXT NOT NULL, `hour` INTEGER NOT NULL, `minute` INTEGER NOT NULL, `day_of_week` INTEGER, `date_millis` INTEGER, `is_enabled` INTEGER NOT NULL, `last_execution_at` INTEGER, `last_execution_status` TEXT, `last_execution_session_id` TEXT, `next_trigger_at` INTEGER, `created_at` INTEGER NOT NULL, `updated_at` INTEGER NOT NULL, PRIMARY KEY(`id`))",
    "CREATE INDEX IF NOT EXISTS `index_scheduled_tasks_is_enabled` ON `scheduled_tasks` (`is_enabled`)",
    "CREATE INDEX IF NOT EXISTS `index_scheduled_tasks_next_trigger_at` ON `scheduled_tasks` (`next_trigger_at`)",
    "CREATE TABLE IF NOT EXISTS `task_execution_records` (`id` TEXT NOT NULL, `task_id` TEXT NOT NULL, `status` TEXT NOT NULL, `session_id` TEXT, `started_at` INTEGER NOT NULL, `completed_at` INTEGER, `error_message` TEXT, PRIMARY KEY(`id`), FOREIGN KEY(`task_id`) REFERENCES `scheduled_tasks`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_task_execution_records_task_id` ON `task_execution_records` (`task_id`)",
    "CREATE INDEX IF NOT EXISTS `index_task_execution_records_started_at` ON `task_execution_records` (`started_at`)",
    "CREATE TABLE IF NOT EXISTS `attachments` (`id` TEXT NOT NULL, `message_id` TEXT NOT NULL, `type` TEXT NOT NULL, `file_name` TEXT NOT NULL, `mime_type` TEXT NOT NULL, `file_size` INTEGER NOT NULL, `file_path` TEXT NOT NULL, `thumbnail_path` TEXT, `width` INTEGER, `height` INTEGER, `duration_ms` INTEGER, `created_at` INTEGER NOT NULL, PRIMARY KEY(`id`), FOREIGN KEY(`message_id`) REFERENCES `messages`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_attachments_message_id` ON `attachments` (`message_id`)",
    "CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)",
    f"INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '{IDENTITY_HASH}')",
]

SEARCHED_TABLES = ("messages", "sessions", "memory_index")


def create_oneclaw_database(path: Path, *, wal: bool = False, user_version: int = 1) -> Path:
    """An empty database as the OneClaw app creates it (Room journals in WAL on a device)."""
    connection = sqlite3.connect(path)
    try:
        if wal:
            connection.execute("PRAGMA journal_mode=WAL")
        for statement in ROOM_DDL:
            connection.execute(statement)
        connection.execute(f"PRAGMA user_version={user_version}")
        connection.commit()
    finally:
        connection.close()
    return path


def table_shape(connection: sqlite3.Connection, table: str) -> dict[str, object]:
    """What Room's schema validation compares: columns, foreign keys and named indexes."""
    columns = [row[1:] for row in connection.execute(f"PRAGMA table_info(`{table}`)")]
    foreign_keys = [row[2:] for row in connection.execute(f"PRAGMA foreign_key_list(`{table}`)")]
    indexes = sorted(
        (row[1], row[2], tuple(info[2] for info in connection.execute(f"PRAGMA index_info(`{row[1]}`)")))
        for row in connection.execute(f"PRAGMA index_list(`{table}`)")
        if not row[1].startswith("sqlite_autoindex")
    )
    return {"columns": columns, "foreign_keys": foreign_keys, "indexes": indexes}
