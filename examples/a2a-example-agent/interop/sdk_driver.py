"""What the SDK-client drivers share (drive_agent.py, drive_replicas.py): a client of the official
SDK over one binding, checks that each print PASS or FAIL and are counted per binding, and the run
itself, bounded in time, ending with the pass counts and an exit code of 1 on any failure."""

import asyncio
import sys
import traceback

import grpc

from a2a.client import ClientConfig, ClientFactory
from a2a.types import a2a_pb2 as pb

RESULTS: dict[str, list[tuple[str, bool, str]]] = {}


def record(binding: str, name: str, ok: bool, detail: str = '') -> None:
    RESULTS.setdefault(binding, []).append((name, ok, detail))
    print(f'{"PASS" if ok else "FAIL"} [{binding}] {name}{": " + detail if detail and not ok else ""}', flush=True)


async def check(binding: str, name: str, body, timeout: float) -> None:
    """Runs one check within `timeout` seconds; an exception or a false assertion is a failure with
    its reason."""
    try:
        await asyncio.wait_for(body(), timeout)
        record(binding, name, True)
    except Exception as error:  # noqa: BLE001 - every failure is reported, none stops the run
        detail = f'{type(error).__name__}: {error}'
        if not isinstance(error, AssertionError):
            detail += '\n' + traceback.format_exc(limit=3)
        record(binding, name, False, detail)


def make_client(card: pb.AgentCard, binding: str, streaming: bool, interceptors=None, **config):
    """The SDK's client of `card` over `binding` only (gRPC in plain text, on loopback), with the
    SDK's call `interceptors` if given."""
    factory = ClientFactory(
        ClientConfig(
            streaming=streaming,
            supported_protocol_bindings=[binding],
            grpc_channel_factory=lambda url: grpc.aio.insecure_channel(url),
            **config,
        )
    )
    return factory.create(card, interceptors)


def run(main, usage: str, whole_run_seconds: int) -> None:
    """Runs `main(url_a, url_b)` from the command line within `whole_run_seconds`, prints the pass
    counts per binding and exits 1 on any failure."""
    if len(sys.argv) != 3:
        sys.exit(usage)
    try:
        asyncio.run(asyncio.wait_for(main(sys.argv[1], sys.argv[2]), whole_run_seconds))
    except TimeoutError:
        record('run', f'finished within {whole_run_seconds} s', False)
    print()
    failed = 0
    for binding, results in RESULTS.items():
        passed = sum(ok for _, ok, _ in results)
        failed += len(results) - passed
        print(f'{binding}: {passed}/{len(results)} passed')
    sys.exit(1 if failed else 0)
