"""The store in one DynamoDB table, for AWS Lambda, where instances share nothing.

One item per entry: ``pk`` (S, the key, the table's only key), ``v`` (N, the version), ``d``
(S, the data as compact JSON) and ``ttl`` (N, epoch seconds, the table's TTL attribute). TTL
deletes expired items lazily, up to days later, so every read and every condition also treats
an item with ``ttl <= now`` as gone. Every write is a conditional request, atomic on its own
(``count`` may take three, and says why); reads are strongly consistent. A write retried after
its answer timed out can find its own first attempt done, and so say False.

The table is marked as the store's by ``create_table`` (an item, ``MARKER``, holding a random
id), and every instance reads the mark at its first request and again at most every
``CHECK_SECONDS`` before working: a table deleted (and perhaps made again) under a running
deployment is StoreUnavailable, never an empty store taken for the old one, where an old link's
turn would be taken again and texted twice. A table found without the mark is refused too,
until ``python -m app store create-table`` marks it (the operator's choice to go on with it).

boto3 takes about 150 ms to import: it is imported at the first request, not with this module.
Timeouts are short and retries few, so a store that is down says so within a few seconds.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid

from app.store import Entry, Store, StoreUnavailable

CONDITION_FAILED = "ConditionalCheckFailedException"
MARKER = "store#table"  # the item that says which table this is
FOREVER = 2 ** 40  # a TTL no item reaches
CHECK_SECONDS = 1.0  # how often an instance reads the mark again, at most (a read each time)
_TTL = {"#ttl": "ttl"}  # TTL is one of DynamoDB's reserved words


class _Refused(Exception):
    """DynamoDB answered with an error the caller expects (``args[0]`` is its code)."""


class DynamoStore(Store):
    def __init__(self, table: str, region: str | None = None, endpoint: str | None = None,
                 clock=None):
        super().__init__(clock or time.time)
        self.table = table
        self.region = (region or os.environ.get("AWS_REGION")
                       or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1")
        self.endpoint = endpoint
        self._made = None
        self._lock = threading.Lock()
        self._mark: str | None = None  # the table's id, as first read
        self._checked = -CHECK_SECONDS  # when, by time.monotonic()

    def _client(self):
        """The one boto3 client (thread-safe), made at first use."""
        with self._lock:
            if self._made is None:
                self._made = _make_client(self.region, self.endpoint)
            return self._made

    def _send(self, operation: str, expect=(CONDITION_FAILED,), **params) -> dict:
        return _request(self._client(), self.table, operation, expect,
                        TableName=self.table, **params)

    def _write(self, operation: str, **params) -> bool:
        """A conditional write: whether its condition held (and so it was done)."""
        try:
            self._send(operation, **params)
        except _Refused:
            return False
        return True

    def _same_table(self) -> None:
        """StoreUnavailable unless the table is the one this instance first found marked."""
        with self._lock:
            if time.monotonic() - self._checked < CHECK_SECONDS:
                return
        item = self._send("get_item", Key=_key(MARKER), ConsistentRead=True).get("Item")
        mark = json.loads(item["d"]["S"]).get("id") if item else None
        if mark is None:
            raise StoreUnavailable(f"DynamoDB table {self.table}: it isn't marked as the store "
                                   "(deleted and made again?); python -m app store create-table "
                                   "marks it, to go on with it as it is")
        with self._lock:
            if self._mark is None:
                self._mark = mark
            if mark != self._mark:
                raise StoreUnavailable(f"DynamoDB table {self.table}: it was made again under "
                                       "this server; restart to use what is there")
            self._checked = time.monotonic()

    def get(self, key: str) -> Entry | None:
        self._same_table()
        item = self._send("get_item", Key=_key(key), ConsistentRead=True).get("Item")
        if not item or int(item["ttl"]["N"]) <= int(self.clock()):
            return None
        return Entry(json.loads(item["d"]["S"]), int(item["v"]["N"]))

    def add(self, key: str, data: dict, expires: float) -> bool:
        self._same_table()
        return self._write("put_item", Item=_item(key, 1, data, expires),
                           ConditionExpression="attribute_not_exists(pk) OR #ttl <= :now",
                           ExpressionAttributeNames=_TTL,
                           ExpressionAttributeValues={":now": _number(self.clock())})

    def swap(self, key: str, version: int, data: dict, expires: float) -> bool:
        self._same_table()
        return self._write("put_item", Item=_item(key, version + 1, data, expires),
                           ConditionExpression="v = :version AND #ttl > :now",
                           ExpressionAttributeNames=_TTL,
                           ExpressionAttributeValues={":version": _number(version),
                                                      ":now": _number(self.clock())})

    def count(self, key: str, limit: int, expires: float) -> bool:
        """An update can't choose between counting on and starting again, so it takes two
        conditional writes, each atomic: count on a live counter below the limit (creating it
        at 1), else start an expired (or vanished) one again at 1. If the second finds the
        counter live, another request has just started it again: count on once more."""
        if limit < 1:
            return False
        self._same_table()
        return (self._count_on(key, limit, expires) or self._start_again(key, expires)
                or self._count_on(key, limit, expires))

    def _count_on(self, key: str, limit: int, expires: float) -> bool:
        return self._write(
            "update_item", Key=_key(key),
            UpdateExpression="SET v = if_not_exists(v, :zero) + :one, "
                             "#ttl = if_not_exists(#ttl, :expires), d = if_not_exists(d, :empty)",
            ConditionExpression="attribute_not_exists(pk) OR (v < :limit AND #ttl > :now)",
            ExpressionAttributeNames=_TTL,
            ExpressionAttributeValues={":zero": _number(0), ":one": _number(1),
                                       ":expires": _number(expires), ":empty": {"S": "{}"},
                                       ":limit": _number(limit), ":now": _number(self.clock())})

    def _start_again(self, key: str, expires: float) -> bool:
        return self._write("put_item", Item=_item(key, 1, {}, expires),
                           ConditionExpression="attribute_not_exists(pk) OR #ttl <= :now",
                           ExpressionAttributeNames=_TTL,
                           ExpressionAttributeValues={":now": _number(self.clock())})

    def create_table(self) -> list[str]:
        """Create the table (on-demand billing) and switch on TTL for ``ttl``; what was done,
        one line each. Idempotent: an existing table with the right key is left as it is."""
        try:
            self._send("create_table", expect=("ResourceInUseException",),
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                       BillingMode="PAY_PER_REQUEST")
            done = [f"created table {self.table} in {self.region}"]
        except _Refused:
            done = [f"table {self.table} already exists in {self.region}"]
        for _ in range(60):  # a new table takes seconds to become ACTIVE on AWS
            table = self._send("describe_table")["Table"]
            if table["TableStatus"] == "ACTIVE":
                break
            time.sleep(2)
        else:
            raise StoreUnavailable(f"DynamoDB table {self.table}: still {table['TableStatus']}")
        if table["KeySchema"] != [{"AttributeName": "pk", "KeyType": "HASH"}]:
            raise StoreUnavailable(f"DynamoDB table {self.table}: its key is "
                                   f"{table['KeySchema']}, not the partition key pk alone")
        return done + [self._enable_ttl(), self._marked()]

    def _marked(self) -> str:
        """Mark the table as the store's, once: see the module's docstring."""
        if self._write("put_item", Item=_item(MARKER, 1, {"id": uuid.uuid4().hex}, FOREVER),
                       ConditionExpression="attribute_not_exists(pk)"):
            return f"marked table {self.table} as Boardpass's store"
        return f"table {self.table} already marked as Boardpass's store"

    def _enable_ttl(self) -> str:
        try:
            ttl = self._send("describe_time_to_live", expect=("UnknownOperationException",))
            state = ttl["TimeToLiveDescription"]
            if state.get("AttributeName") == "ttl" and state["TimeToLiveStatus"] in ("ENABLED",
                                                                                   "ENABLING"):
                return "TTL already enabled on attribute ttl"
            self._send("update_time_to_live", expect=("UnknownOperationException",),
                       TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
        except _Refused:  # dynalite, the tests' server, has no TTL
            return ("warning: this server can't enable TTL (UnknownOperationException): "
                    "expired entries are ignored but never deleted")
        return "enabled TTL on attribute ttl (DynamoDB deletes expired items within days)"

    def close(self) -> None:
        with self._lock:
            if self._made is not None:
                self._made.close()
                self._made = None


def _make_client(region: str, endpoint: str | None):
    """A DynamoDB client that gives up fast. A local server (``endpoint``) takes any
    credentials: without AWS ones in the environment, it gets dummy ones."""
    import boto3
    from botocore.config import Config

    config = Config(connect_timeout=1, read_timeout=2,
                    retries={"max_attempts": 2, "mode": "standard"})
    credentials = {}
    if endpoint and not ({"AWS_ACCESS_KEY_ID", "AWS_PROFILE"} & set(os.environ)):
        credentials = {"aws_access_key_id": "local", "aws_secret_access_key": "local"}
    try:  # a session of its own: boto3's default session isn't safe to share between threads
        return boto3.session.Session().client("dynamodb", region_name=region,
                                               endpoint_url=endpoint, config=config,
                                               **credentials)
    except ValueError as error:  # a malformed endpoint
        raise StoreUnavailable(f"DynamoDB at {endpoint}: {error}") from None


def _request(client, table: str, operation: str, expect, **params) -> dict:
    """One request: DynamoDB's answer, or _Refused for an error whose code is in ``expect``.
    Any other failure (unreachable, too slow, throttled past the retries, no such table, bad
    credentials) is StoreUnavailable."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        return getattr(client, operation)(**params)
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        if code in expect:
            raise _Refused(code) from None
        message = error.response.get("Error", {}).get("Message", "")
        raise StoreUnavailable(f"DynamoDB table {table}: {code}: {message}") from None
    except BotoCoreError as error:
        raise StoreUnavailable(f"DynamoDB table {table}: {error}") from None


def _key(key: str) -> dict:
    return {"pk": {"S": key}}


def _number(value: float) -> dict:
    return {"N": str(int(value))}


def _item(key: str, version: int, data: dict, expires: float) -> dict:
    return {**_key(key), "v": _number(version), "ttl": _number(expires),
            "d": {"S": json.dumps(data, separators=(",", ":"), ensure_ascii=False)}}
