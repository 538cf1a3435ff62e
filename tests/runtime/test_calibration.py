"""The machine constants (spf.runtime.calibration): measured once, kept per machine in the
cache folder, read back, measured again on request or when the file is damaged."""

from __future__ import annotations

import json

import pytest

from spf.errors import SpfError
from spf.runtime import calibration
from spf.scheduling.autoscheduler.machine_cost import DEFAULT_CONSTANTS, MACHINE_CONSTANTS


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SPF_CALIBRATION", raising=False)
    monkeypatch.setattr(calibration, "_MEMORY", {})
    return tmp_path


def test_defaults_on_request(monkeypatch):
    monkeypatch.setenv("SPF_CALIBRATION", "defaults")
    constants, source = calibration.machine_constants()
    assert constants == DEFAULT_CONSTANTS and "defaults" in source


def test_measured_once_then_read_from_the_cache_folder(fresh, monkeypatch):
    constants, source = calibration.machine_constants()
    assert set(constants) == set(MACHINE_CONSTANTS) and all(v > 0 for v in constants.values())
    assert source.startswith("calibrated in")
    files = list(fresh.glob("calibration-*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["constants"] == constants
    monkeypatch.setattr(calibration, "_MEMORY", {})
    monkeypatch.setattr(calibration, "measure", lambda library: pytest.fail("measured again"))
    again, source = calibration.machine_constants()
    assert again == constants and "cached in" in source


def test_a_damaged_file_is_measured_again(fresh, monkeypatch):
    calibration.machine_constants()
    (file,) = fresh.glob("calibration-*.json")
    file.write_text('{"constants": {"c_walk": -1}}')
    monkeypatch.setattr(calibration, "_MEMORY", {})
    constants, source = calibration.machine_constants()
    assert source.startswith("calibrated in") and all(v > 0 for v in constants.values())


def test_again_replaces_the_file(fresh, monkeypatch):
    calibration.machine_constants()
    monkeypatch.setenv("SPF_CALIBRATION", "again")
    calls = []
    real = calibration.measure
    monkeypatch.setattr(calibration, "measure", lambda library: calls.append(1) or real(library))
    calibration.machine_constants()
    assert calls == [1]


def test_an_unknown_setting_is_refused(monkeypatch):
    monkeypatch.setenv("SPF_CALIBRATION", "sometimes")
    with pytest.raises(SpfError, match="SPF_CALIBRATION"):
        calibration.machine_constants()
