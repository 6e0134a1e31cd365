"""The model seam (``plugineval.models``): the mock provider's reply forms, retries and back-off,
the cache key, the concurrency bound and rate limit, accounting, config and env aliases; the mock's
errors read like the real ``openai`` client's against a local server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from plugineval.models import (
    DiskCache,
    FatalError,
    ModelClient,
    ModelConfig,
    RequestRefused,
    TransientError,
    UnusableResponse,
    role_config,
)
from plugineval.models.mock import (
    MockProvider,
    error,
    fenced_json,
    hermes,
    malformed,
    registered,
    resolve,
    slow,
    think,
    tool_calls,
    with_reasoning,
)
from plugineval.predict._native import native_line

from fake_openai import FakeOpenAI, HTTPFail

BODY = {"messages": [{"role": "user", "content": "明天北京天气怎么样"}]}


def cfg(**kw: Any) -> ModelConfig:
    return ModelConfig(**{"model": "m", "base_url": "mock://t", "retry_backoff_s": 0.0, **kw})


def run(client: ModelClient, *bodies: dict[str, Any]) -> list[Any]:
    async def go() -> list[Any]:
        async with client:
            return [await client.complete(b) for b in bodies]

    return asyncio.run(go())


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, s: float) -> None:
        self.waits.append(s)


# --- the mock's reply forms ---------------------------------------------------------------------------


def test_reply_forms_are_completions_as_servers_send_them() -> None:
    draft = '<tool_call>{"name": "draft", "arguments": {}}</tool_call>'
    forms = [
        "北京明天晴。",
        tool_calls(("weather", {"city": "北京"})),
        think(f"想想 {draft}", "北京明天晴。"),
        with_reasoning(tool_calls(("weather", {"city": "北京"})), f"草稿 {draft}", field="reasoning"),
        hermes([("weather", {"city": "北京"})], before="好的。\n"),
        fenced_json([{"name": "weather", "arguments": {"city": "北京"}}]),
        {"content": "cut", "finish_reason": "length", "usage": {"prompt_tokens": 3, "completion_tokens": 1}},
    ]
    mock = MockProvider(forms)
    got = run(ModelClient(cfg(), provider=mock), *[BODY] * len(forms))
    assert got[0].content == "北京明天晴。" and got[0].finish_reason == "stop"
    assert got[1].finish_reason == "tool_calls" and got[1].message["tool_calls"][0]["function"] == {
        "name": "weather",
        "arguments": '{"city": "北京"}',
    }
    assert got[2].content is not None and got[2].content.startswith("<think>\n想想")
    assert "draft" in got[3].message["reasoning"] and got[3].message["tool_calls"]
    assert got[4].content is not None and "<tool_call>" in got[4].content
    assert got[5].content is not None and got[5].content.startswith("```json\n")
    assert got[6].finish_reason == "length" and got[6].usage == {"prompt_tokens": 3, "completion_tokens": 1}
    assert all(c.model == "m" and not c.cached for c in got)
    # predict reads them as it reads a server's: the draft in the reasoning is never a call
    lines = [native_line(c.message) for c in got]
    assert lines[2]["content"] == "北京明天晴。" and lines[2]["calls"] == []
    assert lines[3]["tool_calls"][0]["function"]["name"] == "weather"
    assert lines[4]["calls"] == [{"name": "weather", "arguments": {"city": "北京"}}]
    assert lines[4]["raw"]["calls_from"] == "content"
    assert len(mock.requests) == len(forms) and mock.requests[0]["model"] == "m"


def test_a_list_script_repeats_its_last_reply_and_a_function_sees_the_request() -> None:
    mock = MockProvider(["a", "b"])
    assert [c.content for c in run(ModelClient(cfg(), provider=mock), BODY, BODY, BODY)] == ["a", "b", "b"]
    fn = MockProvider(lambda body: f"{body['model']}:{body['temperature']}")
    assert run(ModelClient(cfg(temperature=0.3), provider=fn), BODY)[0].content == "m:0.3"


def test_errors_and_malformed_bodies_by_kind() -> None:
    cases: list[tuple[Any, type[Exception]]] = [
        (error(400, "prompt too long"), RequestRefused),
        (error(401, "bad key"), FatalError),
        (error(404, "no such model"), FatalError),
        (error(429), TransientError),
        (error(503), TransientError),
        (malformed('{"object": "error"}'), UnusableResponse),
        (malformed("not json"), UnusableResponse),
    ]
    for reply, kind in cases:
        with pytest.raises(kind) as e:
            run(ModelClient(cfg(max_retries=0), provider=MockProvider([reply])), BODY)
        if isinstance(reply, type(error(400))):
            assert e.value.status == reply.status
    with pytest.raises(RequestRefused) as refused:
        run(ModelClient(cfg(), provider=MockProvider([error(400, "prompt too long")])), BODY)
    assert str(refused.value) == "400 BadRequestError: Error code: 400 - prompt too long"
    assert refused.value.type_name == "BadRequestError"


def test_the_mocks_errors_read_as_the_real_clients() -> None:
    """The same 400 / 401 through the real openai client against a local server: same kind, same text."""

    def refuse(body: dict[str, Any]) -> dict[str, Any]:
        status = 401 if body["messages"][0]["content"] == "401" else 400
        raise HTTPFail(status, "prompt too long" if status == 400 else "bad key")

    for status, kind, msg in ((400, RequestRefused, "prompt too long"), (401, FatalError, "bad key")):
        body = {"messages": [{"role": "user", "content": str(status)}]}
        with FakeOpenAI(refuse) as srv, pytest.raises(kind) as real:
            run(ModelClient(cfg(base_url=srv.base_url, max_retries=0)), body)
        with pytest.raises(kind) as mocked:
            run(ModelClient(cfg(max_retries=0), provider=MockProvider([error(status, msg)])), body)
        assert str(real.value) == str(mocked.value) and real.value.type_name == mocked.value.type_name
        assert real.value.original is not None and mocked.value.original is None


def test_registered_names_echo_and_imports_select_the_mock_by_url() -> None:
    with registered("weather", ["晴"]) as p:
        assert cfg(base_url="mock://weather").resolved_provider() == "mock"
        assert resolve("mock://weather") is p
        assert run(ModelClient(cfg(base_url="mock://weather")), BODY)[0].content == "晴"
    assert run(ModelClient(cfg(base_url="mock://echo")), BODY)[0].content == "明天北京天气怎么样"
    assert resolve("mock://plugineval.models.mock:echo").script is not None
    with pytest.raises(ValueError, match="no mock provider of that name"):
        resolve("mock://nobody")
    assert ModelConfig(model="m", base_url="http://x/v1").resolved_provider() == "openai"
    assert ModelConfig(model="m", base_url="http://x/v1", provider="mock").resolved_provider() == "mock"


# --- retries and back-off ----------------------------------------------------------------------------


def test_429_then_success_honours_retry_after_in_the_seams_rounds() -> None:
    sleeps = Sleeps()
    mock = MockProvider([error(429, retry_after=3.0), error(503, retry_after=None), "ok"])
    client = ModelClient(cfg(max_retries=0, retry_rounds=2, retry_backoff_s=1.0), provider=mock, sleep=sleeps)
    assert run(client, BODY)[0].content == "ok"
    assert len(mock.requests) == 3 and client.usage.retries == 2 and client.usage.errors == 0
    assert sleeps.waits[0] == 3.0  # the Retry-After, longer than the back-off (1 s ± 25 %)
    assert 1.5 <= sleeps.waits[1] <= 2.5  # round 1: 2 s ± 25 %


def test_retry_after_is_capped_and_spent_rounds_raise() -> None:
    sleeps = Sleeps()
    mock = MockProvider([error(429, retry_after=10_000.0)])
    client = ModelClient(
        cfg(max_retries=0, retry_rounds=2, retry_backoff_s=0.01, retry_after_cap_s=5.0),
        provider=mock,
        sleep=sleeps,
    )
    with pytest.raises(TransientError, match="429 RateLimitError"):
        run(client, BODY)
    assert sleeps.waits == [5.0, 5.0] and len(mock.requests) == 3 and client.usage.errors == 1


def test_the_clients_own_retries_come_first_and_refusals_are_not_retried() -> None:
    sleeps = Sleeps()
    mock = MockProvider([error(429, retry_after=0.25), error(500, retry_after=None), "ok"])
    client = ModelClient(cfg(max_retries=2), provider=mock, sleep=sleeps)
    assert run(client, BODY)[0].content == "ok"
    assert sleeps.waits == [0.25, 1.0] and client.usage.requests == 3 and client.usage.retries == 0
    refused = MockProvider([error(400), "ok"])
    with pytest.raises(RequestRefused):
        run(ModelClient(cfg(max_retries=3, retry_rounds=3), provider=refused, sleep=Sleeps()), BODY)
    assert len(refused.requests) == 1


def test_a_slow_reply_past_the_timeout_is_a_transient_timeout() -> None:
    mock = MockProvider([slow(2.0, "late")])
    t0 = time.monotonic()
    with pytest.raises(TransientError) as e:
        run(ModelClient(cfg(max_retries=0, timeout_s=0.1), provider=mock), BODY)
    assert e.value.type_name == "APITimeoutError" and time.monotonic() - t0 < 1.5


# --- the cache ---------------------------------------------------------------------------------------


def test_cache_key_changes_with_what_changes_the_answer_only(tmp_path: Path) -> None:
    base = ModelClient(cfg(), provider=MockProvider(["x"]))
    k = base.key(BODY)
    same = [
        cfg(api_key_env="ANOTHER_KEY_VAR"),
        cfg(base_url="mock://elsewhere"),
        cfg(timeout_s=5, max_retries=0, concurrency=1, retry_rounds=3, rate_limit=2.0),
    ]
    for c in same:
        assert ModelClient(c, provider=MockProvider(["x"])).key(BODY) == k
    assert ModelClient(cfg(), provider=MockProvider(["x"]), api_key="sk-other").key(BODY) == k
    differ = [
        (cfg(temperature=0.7), BODY),
        (cfg(seed=1), BODY),
        (cfg(max_tokens=64), BODY),
        (cfg(model="m2"), BODY),
        (cfg(), {**BODY, "tools": [{"type": "function", "function": {"name": "weather"}}]}),
        (cfg(), {"messages": [{"role": "user", "content": "后天北京天气怎么样"}]}),
        (cfg(), {**BODY, "temperature": 0.5}),
    ]
    keys = {ModelClient(c, provider=MockProvider(["x"])).key(b) for c, b in differ}
    assert k not in keys and len(keys) == len(differ)


def test_cache_hits_and_misses_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cache.sqlite"
    mock = MockProvider(["first", "second", "third"])
    monkeypatch.setenv("MY_KEY", "sk-one")
    one = ModelClient(cfg(cache_path=str(path), api_key_env="MY_KEY"), provider=mock)
    a, b = run(one, BODY, BODY)
    assert (a.content, b.content, b.cached, b.latency_ms) == ("first", "first", True, 0.0)
    assert one.usage.requests == 1 and one.usage.cache_hits == 1
    monkeypatch.setenv("MY_KEY", "sk-two")  # another key: the same answers
    two = ModelClient(cfg(cache_path=str(path), api_key_env="MY_KEY"), provider=mock)
    assert run(two, BODY)[0].content == "first" and two.usage.requests == 0
    warmer = ModelClient(cfg(cache_path=str(path), temperature=0.7), provider=mock)
    assert run(warmer, BODY)[0].content == "second" and warmer.usage.requests == 1
    assert len(DiskCache(path)) == 2


def test_an_answer_the_role_rejects_is_not_cached(tmp_path: Path) -> None:
    mock = MockProvider(["garbled", '{"ok": true}'])
    client = ModelClient(cfg(), provider=mock, cache=DiskCache(tmp_path / "c.sqlite"))

    def check(c: Any) -> None:
        json.loads(c.content)

    async def go() -> Any:
        with pytest.raises(json.JSONDecodeError):
            await client.complete(BODY, check=check)
        return await client.complete(BODY, check=check)

    assert asyncio.run(go()).content == '{"ok": true}' and len(mock.requests) == 2
    assert client.cache is not None and len(client.cache) == 1


# --- limits and accounting ---------------------------------------------------------------------------


def test_concurrency_is_bounded() -> None:
    mock = MockProvider(["ok"], latency_s=0.05)
    client = ModelClient(cfg(concurrency=3), provider=mock)

    async def go() -> None:
        async with client:
            await asyncio.gather(*(client.complete({**BODY, "seed": i}) for i in range(12)))

    asyncio.run(go())
    assert mock.max_in_flight == 3 and len(mock.requests) == 12


def test_rate_limit_spaces_requests() -> None:
    mock = MockProvider(["ok"])
    client = ModelClient(cfg(rate_limit=20.0, concurrency=32), provider=mock)

    async def go() -> float:
        async with client:
            t0 = time.monotonic()
            await asyncio.gather(*(client.complete({**BODY, "seed": i}) for i in range(26)))
            return time.monotonic() - t0

    assert asyncio.run(go()) >= 0.25  # a burst of 20, then 6 more at 20/s


def test_usage_counts_tokens_latency_and_cost() -> None:
    mock = MockProvider(["ok", {"content": "no usage", "usage": None}], latency_s=0.01)
    prices = {"m": {"input": 1.0, "output": 2.0}}
    client = ModelClient(cfg(), provider=mock, prices=prices)
    a, b = run(client, BODY, {**BODY, "seed": 2})
    assert a.cost_usd == pytest.approx((10 * 1.0 + 5 * 2.0) / 1e6) and b.cost_usd is None
    u = client.usage.to_dict()
    assert (u["requests"], u["prompt_tokens"], u["completion_tokens"], u["unpriced"]) == (2, 10, 5, 1)
    assert u["cost_usd"] == pytest.approx(20 / 1e6) and u["latency_ms"] >= 10


# --- config --------------------------------------------------------------------------------------------


def test_config_is_strict_and_roles_read_their_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError, match="extra"):
        ModelConfig(model="m", base_url="http://x", temprature=0.2)  # type: ignore[call-arg]
    assert ModelConfig(model="m", concurrency=1000, temperature=2.5).concurrency == 1000  # predict's range
    from plugineval.judge import LLMConfig

    with pytest.raises(ValidationError):  # the judge keeps its own bounds
        LLMConfig(model="j", base_url="http://x", concurrency=1000)
    with pytest.raises(ValueError, match="unknown model role"):
        role_config("oracle")
    for var in (
        "PLUGINEVAL_JUDGE_BASE_URL",
        "PLUGINEVAL_MODEL_BASE_URL",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(var, raising=False)
    assert role_config("judge") is None
    monkeypatch.setenv("PLUGINEVAL_JUDGE_BASE_URL", "http://judge/v1")
    monkeypatch.setenv("PLUGINEVAL_JUDGE_MODEL", "j")
    monkeypatch.setenv("PLUGINEVAL_JUDGE_CONCURRENCY", "3")
    j = role_config("judge")
    assert j is not None and (j.base_url, j.model, j.concurrency) == ("http://judge/v1", "j", 3)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://openai-alias/v1")  # the model role's documented alias
    monkeypatch.setenv("PLUGINEVAL_MODEL_MODEL", "gpt-x")
    m = role_config("model")
    assert m is not None and m.base_url == "http://openai-alias/v1"
    c = ModelConfig(model="g")
    assert c.api_key("generator") == "unused"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    assert c.api_key("generator") == "sk-openai"
    monkeypatch.setenv("PLUGINEVAL_LLM_API_KEY", "sk-llm")
    assert c.api_key("generator") == "sk-llm" and c.api_key("judge") == "sk-openai"
    monkeypatch.setenv("PLUGINEVAL_GENERATOR_API_KEY", "sk-gen")
    assert c.api_key("generator") == "sk-gen"


def test_importing_the_seam_and_the_mock_does_not_import_openai() -> None:
    code = (
        "import sys, plugineval, plugineval.models, plugineval.models.mock, plugineval.models.client\n"
        "from plugineval.models import ModelClient, ModelConfig\n"
        "assert 'openai' not in sys.modules, 'openai imported'\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
