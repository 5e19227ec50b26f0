"""/exposures checks the hands form a deal before judging exposures (every problem reported)."""
from gongzhu.api import create_app


def test_exposures_rejects_hands_that_are_not_a_deal():
    answer = create_app().test_client().post(
        "/exposures", json={"hands": [["SQ", "SQ"], ["SQ"], [], []], "exposed": [["SQ"], [], [], []]})
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["code"] == "invalid_deal"
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [
        ("/hands/0", "wrong_card_count"), ("/hands/0/1", "duplicate_card"),
        ("/hands/1", "wrong_card_count"), ("/hands/1/0", "duplicate_card"),
        ("/hands/2", "wrong_card_count"), ("/hands/3", "wrong_card_count")]
