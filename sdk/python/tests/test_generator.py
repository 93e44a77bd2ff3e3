"""The generator: the naming rules both SDKs share, the staleness check, and types from named
component schemas."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

import understudy

SDK_DIR = Path(__file__).resolve().parent.parent
GENERATOR = SDK_DIR / "scripts" / "generate.py"
OPENAPI_DIR = SDK_DIR.parent.parent / "openapi"


def load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("generate", GENERATOR)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate"] = module
    spec.loader.exec_module(module)
    return module


generate = load_generator()


class NamingTest(unittest.TestCase):
    def test_the_shared_rules(self) -> None:
        cases = [
            ("createScenario", "Scenarios", "create"),
            ("listScenarios", "Scenarios", "list"),
            ("createScenarioWithGpt", "Scenarios", "createWithGpt"),
            ("listScenarioMeetings", "Meetings", "listScenarioMeetings"),
            ("listApiKeys", "API keys", "list"),
            ("createApiKey", "API keys", "create"),
            ("listAnalyses", "Analyses", "list"),
            ("getAnalysis", "Analyses", "get"),
            ("createMemories", "Memories", "create"),
            ("getMemory", "Memories", "get"),
            ("listVoices", "Voices and avatars", "listVoices"),
            ("signup", "Identity", "signup"),
        ]
        for operation_id, tag, expected in cases:
            self.assertEqual(generate.method_name(operation_id, tag), expected, operation_id)
        self.assertEqual(generate.snake("Voices and avatars"), "voices_and_avatars")
        self.assertEqual(generate.snake("API keys"), "api_keys")
        self.assertEqual(generate.snake("createWithGpt"), "create_with_gpt")

    def test_collisions_keep_the_full_operation_id(self) -> None:
        doc = {"paths": {"/a": {"get": {"operationId": "getThing", "tags": ["Things"]}}, "/b": {"get": {"operationId": "getThings", "tags": ["Things"]}}}}
        ops = [generate.Op("platform", p, "get", item["get"], generate.Schemas(doc), "") for p, item in doc["paths"].items()]
        generate.assign_methods(ops)
        self.assertEqual([op.method for op in ops], ["get_thing", "get_things"])

    def test_the_committed_table_names_every_operation_of_both_documents(self) -> None:
        table = json.loads((SDK_DIR / "operations.json").read_text())
        documents = [json.loads((OPENAPI_DIR / name).read_text()) for name in ("platform-v1.json", "mailbox-v0.json")]
        ids = {op["operationId"] for doc in documents for item in doc["paths"].values() for m, op in item.items() if isinstance(op, dict) and "operationId" in op}
        self.assertEqual({row["operationId"] for row in table}, ids)
        platform = understudy.Understudy(api_key="k")
        mailbox = understudy.Mailbox(api_key="k")
        room_source = Path(understudy.room.__file__).read_text()
        for row in table:
            if row.get("client") == "room":
                # Room calls these with the room token (by operation id); the API-key client has none.
                self.assertIn(f'"{row["operationId"]}"', room_source, row)
                self.assertFalse(hasattr(platform, row["namespace"]), row)
                continue
            client = platform if row["operationId"] in understudy._resources.PLATFORM_OPERATIONS else mailbox
            self.assertTrue(callable(getattr(getattr(client, row["namespace"]), row["method"])), row)
        self.assertEqual(platform.scenarios.import_.__name__, "import_")


class CheckTest(unittest.TestCase):
    def run_generator(self, *args: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run([sys.executable, str(GENERATOR), *args], capture_output=True, text=True)

    def test_check_passes_on_the_committed_files(self) -> None:
        result = self.run_generator("--check")
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_check_fails_when_a_document_changed(self) -> None:
        with tempfile.TemporaryDirectory() as temp:
            for name in ("platform-v1.json", "mailbox-v0.json"):
                shutil.copy(OPENAPI_DIR / name, Path(temp) / name)
            doc = json.loads((Path(temp) / "platform-v1.json").read_text())
            doc["paths"]["/v1/widgets"] = {"get": {"operationId": "listWidgets", "tags": ["Widgets"], "responses": {}}}
            (Path(temp) / "platform-v1.json").write_text(json.dumps(doc))
            result = self.run_generator("--check", "--openapi-dir", temp)
        self.assertEqual(result.returncode, 1)
        self.assertIn("stale: understudy/_resources.py", result.stderr)
        self.assertIn("stale: operations.json", result.stderr)


def componentize(document: dict) -> dict:
    """The document as it will be once its inline schemas are named components: every JSON
    request body and 2xx answer moved to `components.schemas` and referenced."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for item in document["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            name = operation["operationId"][0].upper() + operation["operationId"][1:]
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                schemas[f"{name}Body"] = body["schema"]
                body["schema"] = {"$ref": f"#/components/schemas/{name}Body"}
            for status, answer in operation.get("responses", {}).items():
                content = answer.get("content", {}).get("application/json")
                if status.startswith("2") and content:
                    schemas[f"{name}Answer"] = content["schema"]
                    content["schema"] = {"$ref": f"#/components/schemas/{name}Answer"}
    return document


class FutureDocumentsTest(unittest.TestCase):
    def test_documents_with_named_components_generate_the_same_methods_with_types(self) -> None:
        with tempfile.TemporaryDirectory() as temp:
            docs, out = Path(temp) / "openapi", Path(temp) / "sdk"
            docs.mkdir()
            (out / "understudy").mkdir(parents=True)
            for name in ("platform-v1.json", "mailbox-v0.json"):
                (docs / name).write_text(json.dumps(componentize(json.loads((OPENAPI_DIR / name).read_text()))))
            result = subprocess.run(
                [sys.executable, str(GENERATOR), "--openapi-dir", str(docs), "--out-dir", str(out)], capture_output=True, text=True
            )
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual((out / "operations.json").read_text(), (SDK_DIR / "operations.json").read_text(), "names unchanged")
            resources = (out / "understudy" / "_resources.py").read_text()
            types_source = (out / "understudy" / "types.py").read_text()
        compile(resources, "_resources.py", "exec")
        namespace: dict = {}
        exec(compile(types_source, "types.py", "exec"), namespace)
        self.assertIn("GetScenarioAnswer", namespace)
        self.assertIn("-> types.GetScenarioAnswer:", resources)
        self.assertIn("name: Union[str, NotGiven] = NOT_GIVEN", resources, "body fields behind a $ref are still keywords")


class TypesTest(unittest.TestCase):
    def test_named_component_schemas_become_typed_dicts(self) -> None:
        doc = {
            "components": {
                "schemas": {
                    "def-0": {"type": "object", "properties": {"x": {"type": "string"}}},
                    "Persona": {
                        "type": "object",
                        "required": ["id", "voice"],
                        "properties": {"id": {"type": "string"}, "voice": {"$ref": "#/components/schemas/Voice"}, "tags": {"type": "array", "items": {"type": "string"}}},
                    },
                    "Voice": {"type": "object", "properties": {"from": {"type": ["string", "null"]}, "kind": {"enum": ["a", "b"]}}},
                    "PersonaList": {"type": "object", "properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Persona"}}}},
                }
            },
            "paths": {},
        }
        source = generate.render_types({"platform": generate.Schemas(doc)})
        self.assertNotIn("Def0", source, "placeholder names are not types")
        namespace: dict = {}
        exec(compile(source, "types.py", "exec"), namespace)
        persona = namespace["Persona"]
        self.assertEqual(persona.__required_keys__, frozenset({"id", "voice"}))
        self.assertEqual(persona.__optional_keys__, frozenset({"tags"}))
        self.assertIn("from", namespace["Voice"].__annotations__)
        self.assertIn("List[Persona]", source)

    def test_a_name_both_documents_use_for_different_shapes_gets_the_service_prefix(self) -> None:
        shared = {"type": "object", "properties": {"message": {"type": "string"}}}
        platform = generate.Schemas({"components": {"schemas": {"Error": shared, "Webhook": {"type": "object", "properties": {"url": {"type": "string"}}}}}}, "Platform")
        mailbox = generate.Schemas(
            {"components": {"schemas": {"Error": shared, "Webhook": {"type": "object", "properties": {"webhook_id": {"type": "string"}}}}}}, "Mailbox"
        )
        generate.share_or_rename(platform, mailbox)
        self.assertEqual(mailbox.ref_type("#/components/schemas/Error"), "Error")
        self.assertEqual(mailbox.ref_type("#/components/schemas/Webhook"), "MailboxWebhook")
        source = generate.render_types({"platform": platform, "mailbox": mailbox})
        namespace: dict = {}
        exec(compile(source, "types.py", "exec"), namespace)
        self.assertEqual(set(namespace["Webhook"].__annotations__), {"url"})
        self.assertEqual(set(namespace["MailboxWebhook"].__annotations__), {"webhook_id"})
        self.assertEqual(source.count("class Error("), 1)


if __name__ == "__main__":
    unittest.main()
