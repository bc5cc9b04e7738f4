"""Integrations stage: adapters that put a policy in front of other agents' shells.

Each adapter speaks one peer's protocol (a Claude Code or Gemini CLI hook, an MCP
server) and consults a policy through the small `PolicyLike` protocol, so it never
imports the engine's internals; the CLI layer loads the policy and hands it in.
"""

from __future__ import annotations

from policylang.integrations._common import HookResult, PolicyLike, describe_decision

__all__ = ["HookResult", "PolicyLike", "describe_decision"]
