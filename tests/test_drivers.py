"""Issue 2, "Done when": pymysql and SQLAlchemy (PyPI) create tables, insert,
query and use transactions."""
from __future__ import annotations

import datetime
import decimal

import pymysql
import pytest
import sqlalchemy as sa
from sqlalchemy import orm


@pytest.fixture
def db(onelog_server, fresh_db):
    name = fresh_db("drv")
    c = onelog_server.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute(f"CREATE DATABASE {name}")
    c.close()
    return onelog_server, name


# ---------------------------------------------------------------- pymysql

def test_pymysql_create_insert_select_types(db):
    srv, name = db
    c = srv.connect(database=name, autocommit=True)
    with c.cursor() as cur:
        cur.execute("""CREATE TABLE t (
            id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
            small TINYINT, big BIGINT UNSIGNED, price DECIMAL(10,2), ratio DOUBLE,
            name VARCHAR(50) NOT NULL, note TEXT, raw VARBINARY(16),
            day DATE, ts DATETIME, kind ENUM('a','b','c'),
            UNIQUE KEY uk_name (name), KEY k_day (day))""")
        assert cur.execute(
            "INSERT INTO t (small, big, price, ratio, name, note, raw, day, ts, kind) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (-128, 18446744073709551615, decimal.Decimal("12345678.91"), 0.5,
             "O'Brien \"quoted\" \\ back", None, b"\x00\xff\x10",
             datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 23, 59, 58), "b")) == 1
        assert cur.lastrowid == 1
        n = cur.executemany("INSERT INTO t (name, small) VALUES (%s, %s)",
                            [(f"row{i}", i) for i in range(10)])
        assert n == 10
        cur.execute("SELECT LAST_INSERT_ID()")
        assert cur.fetchone()[0] == 2  # first id of the last multi-row insert
        cur.execute("SELECT small, big, price, ratio, name, note, raw, day, ts, kind FROM t WHERE id = %s", (1,))
        row = cur.fetchone()
        assert row == (-128, 18446744073709551615, decimal.Decimal("12345678.91"), 0.5,
                       "O'Brien \"quoted\" \\ back", None, b"\x00\xff\x10",
                       datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 23, 59, 58), "b")
        cur.execute("SELECT COUNT(*), SUM(small) FROM t WHERE name LIKE %s", ("row%",))
        assert cur.fetchone() == (10, decimal.Decimal(45))
        assert cur.execute("UPDATE t SET small = small + 100 WHERE small BETWEEN %s AND %s", (0, 4)) == 5
        assert cur.execute("DELETE FROM t WHERE name IN %s", (("row8", "row9", "nope"),)) == 2
        cur.execute("SELECT name FROM t WHERE small > 100 ORDER BY name DESC LIMIT 2")
        assert cur.fetchall() == (("row4",), ("row3",))
        with pytest.raises(pymysql.err.IntegrityError) as ei:
            cur.execute("INSERT INTO t (name) VALUES (%s)", ("row1",))
        assert ei.value.args[0] == 1062
        with pytest.raises(pymysql.err.ProgrammingError) as ei:
            cur.execute("SELECT * FROM missing_table")
        assert ei.value.args[0] == 1146
    # DictCursor and SSCursor (unbuffered) are used by real applications
    with c.cursor(pymysql.cursors.DictCursor) as cur:
        cur.execute("SELECT id, name FROM t WHERE id = 2")
        assert cur.fetchone() == {"id": 2, "name": "row0"}
    with c.cursor(pymysql.cursors.SSCursor) as cur:
        cur.execute("SELECT id FROM t ORDER BY id")
        assert [r[0] for r in cur] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    c.close()


def test_pymysql_transactions(db):
    srv, name = db
    a = srv.connect(database=name)            # autocommit off (pymysql default)
    b = srv.connect(database=name, autocommit=True)
    try:
        with a.cursor() as cur:
            cur.execute("SELECT @@autocommit")
            assert int(cur.fetchone()[0]) == 0
            cur.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL)")
            cur.execute("INSERT INTO acct VALUES (1, 100), (2, 50)")
        a.commit()

        # rollback discards
        with a.cursor() as cur:
            cur.execute("UPDATE acct SET bal = bal - 30 WHERE id = 1")
            cur.execute("UPDATE acct SET bal = bal + 30 WHERE id = 2")
            cur.execute("SELECT bal FROM acct ORDER BY id")
            assert cur.fetchall() == ((70,), (80,))   # own writes visible
        with b.cursor() as cur:
            cur.execute("SELECT bal FROM acct ORDER BY id")
            assert cur.fetchall() == ((100,), (50,))  # uncommitted invisible
        a.rollback()
        with a.cursor() as cur:
            cur.execute("SELECT bal FROM acct ORDER BY id")
            assert cur.fetchall() == ((100,), (50,))

        # commit publishes
        with a.cursor() as cur:
            cur.execute("UPDATE acct SET bal = bal - 30 WHERE id = 1")
            cur.execute("UPDATE acct SET bal = bal + 30 WHERE id = 2")
        a.commit()
        with b.cursor() as cur:
            cur.execute("SELECT bal FROM acct ORDER BY id")
            assert cur.fetchall() == ((70,), (80,))

        # explicit BEGIN on an autocommit connection, SAVEPOINT
        with b.cursor() as cur:
            b.begin()
            cur.execute("INSERT INTO acct VALUES (3, 1)")
            cur.execute("SAVEPOINT sp1")
            cur.execute("INSERT INTO acct VALUES (4, 1)")
            cur.execute("ROLLBACK TO SAVEPOINT sp1")
            b.commit()
            cur.execute("SELECT id FROM acct ORDER BY id")
            assert cur.fetchall() == ((1,), (2,), (3,))

        # autocommit on: each statement is durable on its own
        a.autocommit(True)
        with a.cursor() as cur:
            cur.execute("INSERT INTO acct VALUES (5, 5)")
        with b.cursor() as cur:
            cur.execute("SELECT bal FROM acct WHERE id = 5")
            assert cur.fetchone() == (5,)
        # a failed statement inside a transaction does not abort the transaction
        a.autocommit(False)
        with a.cursor() as cur:
            cur.execute("INSERT INTO acct VALUES (6, 6)")
            with pytest.raises(pymysql.err.IntegrityError):
                cur.execute("INSERT INTO acct VALUES (6, 7)")
            cur.execute("INSERT INTO acct VALUES (7, 7)")
        a.commit()
        with b.cursor() as cur:
            cur.execute("SELECT id, bal FROM acct WHERE id >= 6 ORDER BY id")
            assert cur.fetchall() == ((6, 6), (7, 7))
    finally:
        a.close()
        b.close()


def test_pymysql_unix_socket_and_multi_statements(db):
    srv, name = db
    c = srv.connect(unix_socket=True, database=name, autocommit=True,
                    client_flag=pymysql.constants.CLIENT.MULTI_STATEMENTS)
    try:
        with c.cursor() as cur:
            cur.execute("CREATE TABLE m (a INT); INSERT INTO m VALUES (1),(2); SELECT SUM(a) FROM m")
            results = []
            while True:
                results.append(cur.fetchall())
                if not cur.nextset():
                    break
            assert results[-1] == ((decimal.Decimal(3),),)
    finally:
        c.close()


# ---------------------------------------------------------------- SQLAlchemy

def engine_for(srv, name):
    url = sa.URL.create("mysql+pymysql", username="root", password=srv.root_password or None,
                        host=srv.host, port=srv.port, database=name)
    return sa.create_engine(url, pool_pre_ping=True)


def test_sqlalchemy_core(db):
    srv, name = db
    eng = engine_for(srv, name)
    md = sa.MetaData()
    items = sa.Table("items", md,
                     sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                     sa.Column("sku", sa.String(32), nullable=False, unique=True),
                     sa.Column("qty", sa.Integer, nullable=False, server_default="0"),
                     sa.Column("price", sa.Numeric(10, 2)),
                     sa.Column("created", sa.DateTime),
                     sa.Index("ix_qty", "qty"))
    try:
        md.create_all(eng)
        insp = sa.inspect(eng)
        assert "items" in insp.get_table_names()
        assert [c["name"] for c in insp.get_columns("items")] == ["id", "sku", "qty", "price", "created"]
        assert any(ix["name"] == "ix_qty" for ix in insp.get_indexes("items"))
        assert insp.get_pk_constraint("items")["constrained_columns"] == ["id"]

        with eng.begin() as conn:
            res = conn.execute(items.insert(), [{"sku": f"s{i}", "qty": i, "price": decimal.Decimal(i) / 4}
                                                for i in range(20)])
            assert res.rowcount == 20
            r = conn.execute(items.insert().values(sku="single", qty=7))
            assert r.inserted_primary_key[0] == 21
        with eng.connect() as conn:
            rows = conn.execute(sa.select(items.c.sku, items.c.qty)
                                .where(items.c.qty.between(5, 8)).order_by(items.c.sku)).all()
            assert [tuple(r) for r in rows] == [("s5", 5), ("s6", 6), ("s7", 7), ("s8", 8), ("single", 7)]
            total = conn.execute(sa.select(sa.func.count(), sa.func.sum(items.c.qty))).one()
            assert tuple(total) == (21, 197)
            grouped = conn.execute(sa.select(items.c.qty, sa.func.count().label("n"))
                                   .group_by(items.c.qty).having(sa.func.count() > 1)).all()
            assert [tuple(g) for g in grouped] == [(7, 2)]
        # rollback on exception
        with pytest.raises(sa.exc.IntegrityError):
            with eng.begin() as conn:
                conn.execute(items.update().where(items.c.sku == "s1").values(qty=1000))
                conn.execute(items.insert().values(sku="s2"))  # duplicate -> rollback all
        with eng.connect() as conn:
            assert conn.execute(sa.select(items.c.qty).where(items.c.sku == "s1")).scalar() == 1
            conn.execute(items.delete().where(items.c.qty < 10))
            conn.rollback()
            assert conn.execute(sa.select(sa.func.count()).select_from(items)).scalar() == 21
            conn.execute(items.delete().where(items.c.qty < 10))
            conn.commit()
            assert conn.execute(sa.select(sa.func.count()).select_from(items)).scalar() == 10
        md.drop_all(eng)
        assert "items" not in sa.inspect(eng).get_table_names()
    finally:
        eng.dispose()


class Base(orm.DeclarativeBase):
    pass


class Author(Base):
    __tablename__ = "authors"
    id: orm.Mapped[int] = orm.mapped_column(primary_key=True)
    name: orm.Mapped[str] = orm.mapped_column(sa.String(64), unique=True)
    books: orm.Mapped[list["Book"]] = orm.relationship(back_populates="author", order_by="Book.id")


class Book(Base):
    __tablename__ = "books"
    id: orm.Mapped[int] = orm.mapped_column(primary_key=True)
    title: orm.Mapped[str] = orm.mapped_column(sa.String(128))
    year: orm.Mapped[int | None]
    author_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("authors.id"), index=True)
    author: orm.Mapped[Author] = orm.relationship(back_populates="books")


def test_sqlalchemy_orm(db):
    srv, name = db
    eng = engine_for(srv, name)
    try:
        Base.metadata.create_all(eng)
        with orm.Session(eng) as s:
            le = Author(name="Le Guin", books=[Book(title="The Dispossessed", year=1974),
                                               Book(title="The Lathe of Heaven", year=1971)])
            s.add_all([le, Author(name="Lem", books=[Book(title="Solaris", year=1961)])])
            s.commit()
            assert le.id is not None and all(b.id for b in le.books)

        with orm.Session(eng) as s:
            a = s.scalars(sa.select(Author).where(Author.name == "le guin")).one()  # case-insensitive
            assert [b.title for b in a.books] == ["The Dispossessed", "The Lathe of Heaven"]
            rows = s.execute(sa.select(Author.name, sa.func.count(Book.id))
                             .join(Book).group_by(Author.name).order_by(Author.name)).all()
            assert [tuple(r) for r in rows] == [("Le Guin", 2), ("Lem", 1)]
            old = s.scalars(sa.select(Book.title).where(Book.year < 1972).order_by(Book.year)).all()
            assert old == ["Solaris", "The Lathe of Heaven"]

            # rollback
            a.name = "changed"
            s.add(Book(title="Never", year=2000, author=a))
            s.flush()
            s.rollback()
            assert s.scalars(sa.select(Author.name).order_by(Author.id)).all() == ["Le Guin", "Lem"]
            assert s.scalar(sa.select(sa.func.count()).select_from(Book)) == 3

            # update + delete
            sol = s.scalars(sa.select(Book).where(Book.title == "Solaris")).one()
            sol.year = 1962
            s.delete(s.scalars(sa.select(Book).where(Book.title.like("%Lathe%"))).one())
            s.commit()
        with orm.Session(eng) as s:
            assert s.scalar(sa.select(Book.year).where(Book.title == "Solaris")) == 1962
            assert s.scalar(sa.select(sa.func.count()).select_from(Book)) == 2
        Base.metadata.drop_all(eng)
    finally:
        eng.dispose()
