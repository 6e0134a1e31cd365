"""Version stamps. Every score carries the dataset, judge and scorer versions.

Bump JUDGE_VERSION when a verdict for the same (prediction, gold) pair can change;
bump SCORER_VERSION when a metric computed from the same verdicts can change.
"""

__version__ = "0.1.0"
SCHEMA_VERSION = "1.0"
# 1.0.2: exact arguments marked temporal when time-valued; integers compared exactly
# 1.1.0: gold_alternatives.extra (reason `extra`); alternative_calls (a positive met by any list, scored
#   against the one met best: `scored_against`); schema defaults dropped at any depth (inside objects
#   and arrays of objects); derived defaults from tool_annotations (date_to = date_from + N days);
#   railway stations and airports are places of their own (海口火车站 = 海口站 ≠ 海口东站)
# 1.2.0: a place named with the gold call's own city in front is that place (成都大熊猫基地 = 大熊猫基地
#   with city 成都); derived defaults may start from the record's own date (an end_date defaulting to today)
# 1.2.1: a calendar expression given as an argument value (农历十月初八, 下个月最后一个工作日,
#   今天之后的第三个工作日) is a relative date (reason `relative`), as 明天 is; 1.2.0 called it unparsed
# 1.2.2: the new calendar expressions as argument values (明年农历三月初八, 春节前最后一个工作日,
#   霜降那天) are relative dates too (reason `relative`); 1.2.1 called them unparsed; a place named with
#   the call's city's nickname in front is that place (蓉城红灯笼粤菜馆 with city 成都)
# 1.3.0: arrays declared `unordered` in tool_annotations compare as multisets (the drugs of an interaction
#   check in any order); an entity named with or without a generic suffix where the store's data says
#   it is one entity (河南 = 河南队); a declared alias of the tool's default counts as the default
#   (cabin 经济舱 where the default is economy); an array's items mapped by their aliases before the
#   schema check; a string past the normalizers' cap (1,024 characters) is decided without normalizing
#   and shown shortened in reports; a number too large for a float is no number; an offset past 3,650
#   (a code run into 十二天前) is no date
# 1.3.1: the store's names follow the real world (restaurants are real chains: 海底捞火锅, 喜茶万象城店):
#   the gazetteer of names with and without a generic suffix (data/entities.json) is regenerated from them
# 1.3.2: airports by their official names (洛阳北郊机场 = 洛阳机场) and landmarks by their full names or with their city in front (成都远洋太古里 = 太古里, 上海外滩 = 外滩)
JUDGE_VERSION = "1.3.4"
# scorer 1.1.0: a positive's entry carries its counted inference steps (`steps`), and the metrics are
#   broken down by step (`by.steps`: recall per calendar_fact, date_arithmetic, timezone_conversion …)
SCORER_VERSION = "1.1.0"
