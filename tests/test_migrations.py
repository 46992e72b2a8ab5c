"""Issue 17, "Done when": a real migration tool runs unmodified against OneLog
and against MariaDB 10.11 with the same resulting schema.

Alembic (SQLAlchemy's migration tool) runs a migration history from its own
script directory: it creates tables with a FOREIGN KEY ... ON DELETE CASCADE,
adds columns and indexes, alters columns (type change, rename, nullability),
adds and drops a foreign key constraint, drops columns and an index. After each
upgrade step SHOW CREATE TABLE of every table must be byte-identical on both
servers; then the ORM's rows and cascades behave the same, and a downgrade to
base followed by an upgrade to head leaves the same schema again.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness import create_tables

sa = pytest.importorskip("sqlalchemy")
alembic_command = pytest.importorskip("alembic.command")
from alembic.config import Config  # noqa: E402

ENV_PY = """
from alembic import context
from sqlalchemy import create_engine

url = context.config.get_main_option("sqlalchemy.url")
engine = create_engine(url)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()
"""

# (revision, down_revision, upgrade body, downgrade body)
REVISIONS = [
    ("r1_authors_books", None, """
        op.create_table(
            "author",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("name", sa.String(50), nullable=False),
            sa.Column("email", sa.String(100), unique=True),
        )
        op.create_table(
            "book",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("title", sa.String(200), nullable=False),
            sa.Column("author_id", sa.Integer, sa.ForeignKey("author.id", ondelete="CASCADE"), nullable=False),
            sa.Column("price", sa.Numeric(10, 2)),
            sa.Column("created", sa.DateTime, server_default=sa.func.current_timestamp()),
        )
    """, """
        op.drop_table("book")
        op.drop_table("author")
    """),
    ("r2_isbn_index", "r1_authors_books", """
        op.add_column("book", sa.Column("isbn", sa.String(20), nullable=True))
        op.create_index("ix_book_title", "book", ["title"])
        op.create_index("ix_book_price_author", "book", ["price", "author_id"])
    """, """
        op.drop_index("ix_book_price_author", table_name="book")
        op.drop_index("ix_book_title", table_name="book")
        op.drop_column("book", "isbn")
    """),
    ("r3_alter_columns", "r2_isbn_index", """
        op.alter_column("author", "name", existing_type=sa.String(50), type_=sa.String(100), nullable=True)
        op.alter_column("book", "price", existing_type=sa.Numeric(10, 2), type_=sa.Numeric(12, 3))
        op.alter_column("book", "isbn", existing_type=sa.String(20), new_column_name="isbn13")
        op.alter_column("book", "title", existing_type=sa.String(200), server_default="untitled",
                        existing_nullable=False)
    """, """
        op.alter_column("book", "title", existing_type=sa.String(200), server_default=None,
                        existing_nullable=False)
        op.alter_column("book", "isbn13", existing_type=sa.String(20), new_column_name="isbn")
        op.alter_column("book", "price", existing_type=sa.Numeric(12, 3), type_=sa.Numeric(10, 2))
        op.alter_column("author", "name", existing_type=sa.String(100), type_=sa.String(50), nullable=False)
    """),
    ("r4_editor_fk", "r3_alter_columns", """
        op.add_column("book", sa.Column("editor_id", sa.Integer, nullable=True))
        op.create_foreign_key("fk_book_editor", "book", "author", ["editor_id"], ["id"], ondelete="SET NULL")
        op.drop_constraint("email", "author", type_="unique")
    """, """
        op.create_unique_constraint("email", "author", ["email"])
        op.drop_constraint("fk_book_editor", "book", type_="foreignkey")
        op.drop_column("book", "editor_id")
    """),
    ("r5_cleanup", "r4_editor_fk", """
        op.drop_index("ix_book_title", table_name="book")
        op.drop_column("author", "email")
        op.rename_table("book", "title")
    """, """
        op.rename_table("title", "book")
        op.add_column("author", sa.Column("email", sa.String(100)))
        op.create_index("ix_book_title", "book", ["title"])
    """),
]


def write_script_dir(base: Path) -> Path:
    scripts = base / "migrations"
    (scripts / "versions").mkdir(parents=True)
    (scripts / "env.py").write_text(ENV_PY)
    (scripts / "script.py.mako").write_text("")
    for rev, down, up, down_body in REVISIONS:
        (scripts / "versions" / f"{rev}.py").write_text(
            "from alembic import op\nimport sqlalchemy as sa\n\n"
            f"revision = {rev!r}\ndown_revision = {down!r}\nbranch_labels = None\ndepends_on = None\n\n"
            "def upgrade():\n" + textwrap.indent(textwrap.dedent(up).strip(), "    ") + "\n\n"
            "def downgrade():\n" + textwrap.indent(textwrap.dedent(down_body).strip(), "    ") + "\n")
    return scripts


def url_of(srv, db: str) -> str:
    return sa.URL.create("mysql+pymysql", username="root", password=srv.root_password or None,
                         host=srv.host, port=srv.port, database=db).render_as_string(hide_password=False)


def config_for(scripts: Path, srv, db: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(scripts))
    cfg.set_main_option("sqlalchemy.url", url_of(srv, db).replace("%", "%%"))
    return cfg


@pytest.fixture
def both(onelog_server, mariadb_server, fresh_db):
    db = fresh_db("alembic")
    for srv in (onelog_server, mariadb_server):
        conn = srv.connect(autocommit=True)
        with conn.cursor() as cur:
            cur.execute(f"CREATE DATABASE {db}")
        conn.close()
    yield (onelog_server, mariadb_server), db
    conn = mariadb_server.connect(autocommit=True)
    with conn.cursor() as cur:
        cur.execute(f"DROP DATABASE {db}")
    conn.close()


def test_alembic_history_gives_the_same_schema_as_mariadb(both, tmp_path):
    (onelog, mariadb), db = both
    scripts = write_script_dir(tmp_path)
    configs = {srv: config_for(scripts, srv, db) for srv in (onelog, mariadb)}
    for rev, *_ in REVISIONS:
        for cfg in configs.values():
            alembic_command.upgrade(cfg, rev)
        assert create_tables(onelog, db) == create_tables(mariadb, db), f"after {rev}"

    # The ORM's rows: SET NULL and CASCADE act as in MariaDB.
    results = {}
    for srv in (onelog, mariadb):
        eng = sa.create_engine(url_of(srv, db))
        with eng.begin() as conn:
            conn.execute(sa.text("INSERT INTO author (name) VALUES ('ann'), ('bob')"))
            conn.execute(sa.text("INSERT INTO title (title, author_id, editor_id, price) "
                                 "VALUES ('a', 1, 2, 1.5), ('b', 2, 1, 2.25), ('c', 2, NULL, NULL)"))
            conn.execute(sa.text("DELETE FROM author WHERE name = 'ann'"))
            rows = conn.execute(sa.text("SELECT title, author_id, editor_id, price FROM title ORDER BY id")).all()
            with pytest.raises(sa.exc.IntegrityError) as refused:
                conn.execute(sa.text("INSERT INTO title (title, author_id) VALUES ('d', 99)"))
            results[srv] = ([tuple(r) for r in rows], refused.value.orig.args[0])
        eng.dispose()
    assert results[onelog] == results[mariadb]
    assert results[onelog][1] == 1452

    for cfg in configs.values():
        alembic_command.downgrade(cfg, "base")
    assert create_tables(onelog, db) == create_tables(mariadb, db)
    assert list(create_tables(onelog, db)) == ["alembic_version"]
    for cfg in configs.values():
        alembic_command.upgrade(cfg, "head")
    assert create_tables(onelog, db) == create_tables(mariadb, db)
