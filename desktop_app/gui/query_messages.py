"""What the search box says when a query cannot be understood: what is wrong and how to fix
it, in plain words. The parser's one-line messages are for the command line; they can name the
parser's own classes (``<_NullQuery>``), which mean nothing to the reader of the window."""

from __future__ import annotations

import re

NUMERIC_FIELDS = ("year", "rating")
_EXAMPLES = {"year": "year:2024 or year:>=2020", "rating": "rating:4 or rating:>=3"}


def plain_query_error(message: str, query: str) -> str:
    """One sentence for the search box: what is wrong with ``query``, then how to fix it."""
    msg = message.strip()
    if "quotation mark is not closed" in msg:
        return 'Unclosed quote in the search: add the closing "'
    if "unbalanced parentheses" in msg:
        if query.count("(") > query.count(")"):
            return 'A bracket in the search is not closed: add the closing ")"'
        return 'The search has a ")" without its "(": remove it or add the opening "("'
    unknown = re.match(r"unknown field '([^']*):'; use one of (.*)$", msg)
    if unknown:
        return f"The search has no field “{unknown.group(1)}:”; use one of: {unknown.group(2)}"
    if "not a valid number" in msg or "needs a number" in msg:
        field = next((f for f in NUMERIC_FIELDS if re.search(rf"\b{f}:", query, re.IGNORECASE)), None)
        if field:
            return f"“{field}:” needs a number in the search, e.g. {_EXAMPLES[field]}"
        return "A field in the search needs a number, e.g. year:2024 or rating:>=3"
    status = re.match(r"status is one of ([^,]+(?:, [^,]+)*?)(?:, not '(.*)')?$", msg)
    if status:
        wrong = f" (not “{status.group(2)}”)" if status.group(2) else ""
        return f"“status:” is one of {status.group(1)}{wrong}: e.g. status:unread"
    # anything else: keep the words, drop the parser's class names and error type prefixes
    cleaned = re.sub(r"<[^>]*>", "this part", msg)
    cleaned = re.sub(r"\b[A-Z]\w*(?:Error|Exception)\b:?\s*", "", cleaned)
    cleaned = re.sub(r"\b_?[A-Z][a-z]+[A-Z]\w*\([^)]*\)", "this part", cleaned).strip(" :")
    detail = f" ({cleaned})" if cleaned else ""
    return f"The search could not be understood{detail}: check its quotes, brackets and field names"
