"""The nginx configuration ``deploy/proxy.py`` renders, checked without running it: its
error answers are the app's problem+json, and nginx accepts the file."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from api_gateway.config import DefaultConfig
from api_gateway.problems import _HTTP_SLUGS
from deploy import proxy


def test_server_level_problems_match_the_apps() -> None:
    assert proxy.PROBLEM_TYPE_BASE == DefaultConfig.PROBLEM_TYPE_BASE
    for status in proxy.PROBLEMS.keys() & _HTTP_SLUGS.keys():
        assert json.loads(proxy.problem_body(status))["type"].endswith("/" + _HTTP_SLUGS[status])


def test_gunicorn_error_answer_is_a_whole_problem_response() -> None:
    head, _, body = proxy.problem_response(431).partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 431 Request Header Fields Too Large"
    assert "Content-Type: application/problem+json" in lines
    assert f"Content-Length: {len(body)}" in lines
    assert "X-Content-Type-Options: nosniff" in lines
    assert json.loads(body)["status"] == 431


def test_rendered_configuration_is_valid_nginx(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    if nginx is None:
        pytest.skip("nginx is not installed (deploy/test.py installs nginx-light as root)")
    runtime = proxy.runtime_directory()
    try:
        settings = proxy.ProxySettings.from_environment(
            {"REFEREE_MAX_BODY_BYTES": "1000", "REFEREE_PROXY_HEADER_TIMEOUT_SECONDS": "0.25"},
            "127.0.0.1:1", f"unix:{runtime / 'gunicorn.sock'}")
        config = proxy.render(settings, runtime)
        text = config.read_text()
        assert "client_max_body_size 1000;" in text and "client_header_timeout 250ms;" in text
        assert "error_page 494 =431 /_problem/431;" in text
        checked = subprocess.run([*proxy.command(nginx, config), "-t"], capture_output=True,
                                 text=True)
        assert checked.returncode == 0, checked.stderr
    finally:
        shutil.rmtree(runtime)
