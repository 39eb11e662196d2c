"""LLM Hardware Advisor: identity only (read by packaging, the About box and the PDF)."""

APP_ID = "io.github.llm_hardware_advisor.Advisor"
APP_NAME = "LLM Hardware Advisor"
APP_SUMMARY = "Compare GPUs and builds for running and fine-tuning large language models"
APP_LICENSE = "MIT"
APP_URL = "https://github.com/llm-hardware-advisor/advisor"
__version__ = "0.1.0"
