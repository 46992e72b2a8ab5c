"""Issue 17, "Done when": Django's `migrate` runs unmodified against OneLog and
MariaDB 10.11 for its built-in apps (auth, contenttypes, sessions, admin) plus
a small app of our own, with the same resulting schema (SHOW CREATE TABLE of
every table equal, foreign keys and the keys they need included); then its ORM
creates and queries rows, with the same answers on both.

Django runs in a subprocess per server (its settings are global to a
process), through PyMySQL as MySQLdb. The app's migration is written by
Django's own `makemigrations`. UUIDField is MariaDB's `uuid` type (Django
uses it from MariaDB 10.7 on): a primary key, a unique nullable column and a
foreign key to a UUID primary key, ordered by MariaDB's storage order.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import create_tables

pytest.importorskip("django")

MODELS = """
import uuid

from django.db import models


class Category(models.Model):
    name = models.CharField(max_length=100, unique=True)
    description = models.TextField(blank=True)


class Tag(models.Model):
    label = models.SlugField(max_length=40)


class Product(models.Model):
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="products")
    name = models.CharField(max_length=200, db_index=True)
    price = models.DecimalField(max_digits=10, decimal_places=2)
    stock = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    active = models.BooleanField(default=True)
    data = models.JSONField(default=dict)
    tags = models.ManyToManyField(Tag, blank=True)

    class Meta:
        indexes = [models.Index(fields=["category", "-price"], name="cat_price_idx")]
        constraints = [models.CheckConstraint(condition=models.Q(price__gte=0), name="price_nonneg")]


class Coupon(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    product = models.ForeignKey(Product, on_delete=models.CASCADE, null=True)
    ref = models.UUIDField(unique=True, null=True)


class Redemption(models.Model):
    coupon = models.ForeignKey(Coupon, on_delete=models.CASCADE)
"""

DRIVER = """
import json, sys, uuid
sys.path.insert(0, sys.argv[1])
import pymysql
pymysql.install_as_MySQLdb()
import django
from django.conf import settings

command, host, port, db = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
settings.configure(
    INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
                    "django.contrib.admin", "django.contrib.messages", "shop"],
    DATABASES={"default": {"ENGINE": "django.db.backends.mysql", "NAME": db, "USER": "root", "PASSWORD": "",
                           "HOST": host, "PORT": port}},
    USE_TZ=True,
)
django.setup()
from django.core.management import call_command

if command == "makemigrations":
    call_command("makemigrations", "shop", verbosity=0)
    sys.exit(0)
call_command("migrate", verbosity=0)
from decimal import Decimal
from django.contrib.auth.models import User, Group, Permission
from django.db import IntegrityError, transaction
from django.db.models import Count, Sum
from shop.models import Category, Coupon, Product, Redemption, Tag

books = Category.objects.create(name="books")
games = Category.objects.create(name="games", description="fun")
sql = Tag.objects.create(label="sql")
for i in range(6):
    p = Product.objects.create(category=books if i % 2 else games, name=f"p{i}", price=Decimal(i) + Decimal("0.25"),
                               stock=i * 3, data={"n": i, "even": i % 2 == 0})
    if i < 3:
        p.tags.add(sql)
out = {}
out["cheap"] = list(Product.objects.filter(price__lt=3, category__name="books").values_list("name", "price"))
out["per_category"] = list(Category.objects.annotate(n=Count("products"), s=Sum("products__stock"))
                           .order_by("name").values_list("name", "n", "s"))
out["tagged"] = sorted(Product.objects.filter(tags__label="sql").values_list("name", flat=True))
out["json"] = sorted(Product.objects.filter(data__even=True).values_list("name", flat=True))
try:
    with transaction.atomic():
        Product.objects.create(category=books, name="bad", price=Decimal("-1"))
    out["check"] = "accepted"
except IntegrityError as e:
    out["check"] = e.args[0]
try:
    with transaction.atomic():
        Product.objects.create(category_id=999, name="orphan", price=Decimal("1"))
    out["orphan"] = "accepted"
except IntegrityError as e:
    out["orphan"] = e.args[0]
# Fixed UUIDs of versions 1, 4 and 7: MariaDB orders versions 1..5 by their
# swapped (node first) form, the others as written.
ids = ["123e4567-e89b-12d3-a456-426655440000", "01890a5d-ac96-774b-bcce-b302099a8057",
       "f47ac10b-58cc-4372-a567-0e02b2c3d479", "190bbe34-ea09-11f1-8a44-02fc00000001"]
for i, cid in enumerate(ids):
    c = Coupon.objects.create(id=uuid.UUID(cid), product=Product.objects.get(name=f"p{i}"),
                              ref=uuid.UUID(int=i + 1) if i % 2 else None)
    Redemption.objects.create(coupon=c)
Coupon.objects.create()  # a random uuid4 key
out["coupons"] = [str(c) for c in Coupon.objects.filter(id__in=[uuid.UUID(x) for x in ids])
                  .order_by("id").values_list("id", flat=True)]
out["coupon_get"] = str(Coupon.objects.get(pk=uuid.UUID(ids[2])).product.name)
out["coupon_ref"] = str(Coupon.objects.get(ref=uuid.UUID(int=2)).id)
out["redeemed"] = sorted(str(r.coupon_id) for r in Redemption.objects.filter(coupon__ref__isnull=True))
try:
    with transaction.atomic():
        Coupon.objects.create(ref=uuid.UUID(int=2))
    out["dup_ref"] = "accepted"
except IntegrityError as e:
    out["dup_ref"] = e.args[0]
games.delete()  # Django cascades itself, then the database's constraints hold
out["after_delete"] = sorted(Product.objects.values_list("name", flat=True))
user = User.objects.create_user("alice", "alice@example.com", "secret")
group = Group.objects.create(name="editors")
group.permissions.add(Permission.objects.get(codename="change_product"))
user.groups.add(group)
out["perms"] = sorted(User.objects.get(username="alice").get_all_permissions())
out["login"] = User.objects.get(username="alice").check_password("secret")
print(json.dumps(out, default=str))
"""


def run_django(project: Path, command: str, srv, db: str) -> str:
    done = subprocess.run([sys.executable, str(project / "driver.py"), str(project), command, srv.host,
                           str(srv.port), db], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"django {command} on {srv}:\n{done.stdout}\n{done.stderr[-4000:]}"
    return done.stdout


def test_django_migrate_and_orm_match_mariadb(onelog_server, mariadb_server, fresh_db, tmp_path):
    db = fresh_db("django")
    servers = (onelog_server, mariadb_server)
    for srv in servers:
        if srv.root_password:
            pytest.skip("the driver connects as root without a password")
        conn = srv.connect(autocommit=True)
        with conn.cursor() as cur:
            cur.execute(f"CREATE DATABASE {db}")
        conn.close()
    project = tmp_path / "project"
    (project / "shop" / "migrations").mkdir(parents=True)
    (project / "shop" / "__init__.py").write_text("")
    (project / "shop" / "migrations" / "__init__.py").write_text("")
    (project / "shop" / "models.py").write_text(textwrap.dedent(MODELS))
    (project / "driver.py").write_text(textwrap.dedent(DRIVER))
    run_django(project, "makemigrations", mariadb_server, db)
    try:
        results = [json.loads(run_django(project, "migrate", srv, db)) for srv in servers]
        assert create_tables(onelog_server, db) == create_tables(mariadb_server, db)
        assert results[0] == results[1]
        assert results[0]["orphan"] == 1452 and results[0]["check"] == 4025
        assert results[0]["login"] is True
        assert results[0]["dup_ref"] == 1062 and len(results[0]["coupons"]) == 4
    finally:
        conn = mariadb_server.connect(autocommit=True)
        with conn.cursor() as cur:
            cur.execute(f"DROP DATABASE {db}")
        conn.close()
