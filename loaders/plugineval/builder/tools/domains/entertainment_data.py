"""Word lists, fixed facts and row generators for the entertainment store.

Movie, song, show and book titles are invented from the word lists; league rosters, TV channel names
and their long-running fixed programmes are real (one roster per league for every season: promotion
and relegation are not modelled). Generators take the populate rng and return rows.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from ..runtime import stable_unit
from ._common import CITIES, parse_hhmm
from .entertainment_film_data import SINGERS, STAGE_WORKS, retitle

Rows = list[tuple[Any, ...]]


def _w(s: str, sep: str | None = None) -> list[str]:
    """A word list written as one string (keeps long lists compact)."""
    return s.split(sep)


# --- word lists ----------------------------------------------------------------------------------
CINEMA_BRANDS = _w(
    "万达影城 CGV影城 博纳国际影城 金逸影城 大地影院 横店电影城 卢米埃影城 百老汇影城 UME影城 中影国际影城 "
    "耀莱成龙影城 幸福蓝海国际影城 星轶影城"
)
CINEMA_SITES = _w(
    "万象城 来福士 大悦城 吾悦广场 龙湖天街 印象城 银泰城 恒隆广场 太古里 凯德广场 爱琴海 宝龙广场 奥特莱斯 "
    "大学城 高新区 万达广场 火车站 国贸 中山路 人民广场 世纪城 环球港 江滩 金融城"
)
MOVIE_GENRES = _w("剧情 喜剧 动作 科幻 悬疑 爱情 动画 战争 家庭 奇幻")
MOVIE_WORDS_A = _w(
    "长风 孤城 星河 暗涌 逆光 归途 破晓 雾港 山海 烈火 无声 深蓝 远方 白夜 青春 追光 极速 边境 迷城 少年 "
    "月下 云端 雪国 江湖 天际 风暴 潮汐 回响 沙海 镜中 暗夜 黎明 千里 万家 故乡 时光 荒原 红尘 初心 火种"
)
MOVIE_WORDS_B = _w(
    "行动 之约 往事 密码 守望 奇遇 传说 营救 追踪 者 计划 来信 狂想 笔记 之战 之歌 迷踪 日记 突围 归来 "
    "谜案 英雄 使命 迷局 人间 少女 列车 岛屿 信号 之心"
)
MOVIE_PATTERNS = ["{a}{b}", "{a}{b}", "{a}{b}", "我的{a}", "{a}{c}", "{a}与{c}", "{a}{b}2"]
SURNAMES = list(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程苏魏吕丁任沈姚卢"
)
GIVEN = list("伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉萍红晨然宁远舟楠熙悦晗泽辰一川若溪")

MUSIC_LANGS = {"mandarin": 0.55, "cantonese": 0.12, "english": 0.18, "japanese": 0.07, "korean": 0.08}
SONG_WORDS_A = _w(
    "晚风 夏天 星空 故事 心跳 海边 雨季 城市 旧街 月光 梦境 微光 远山 清晨 花开 夜航 灯火 候鸟 秋天 列车 "
    "天台 纸飞机 橘子汽水 南方"
)
SONG_WORDS_B = ["", *_w("的你 之后 来信 日记 情书 告白 慢慢 独白 回忆 少年 未眠 里 之间 和我 的歌 很美 不说")]
BAND_SUFFIX = ["乐队", "乐团", "组合"]
ALBUM_WORDS = _w("第一章 序曲 无限 回声 底色 光年 旅程 未完成 十二月 漫游 彩色")
# artist|title|album|year|language — well-known songs, for queries that name them.
REAL_SONGS = [
    tuple(line.split("|"))
    for line in _w(
        "周杰伦|晴天|叶惠美|2003|mandarin;周杰伦|七里香|七里香|2004|mandarin;周杰伦|稻香|魔杰座|2008|mandarin;"
        "周杰伦|青花瓷|我很忙|2007|mandarin;周杰伦|夜曲|十一月的萧邦|2005|mandarin;"
        "陈奕迅|十年|黑·白·灰|2003|mandarin;陈奕迅|浮夸|U87|2005|cantonese;王菲|红豆|唱游|1998|mandarin;"
        "林俊杰|江南|第二天堂|2004|mandarin;林俊杰|修炼爱情|因你而在|2013|mandarin;"
        "五月天|倔强|神的孩子都在跳舞|2004|mandarin;邓紫棋|泡沫|Xposed|2012|mandarin;"
        "刘若英|后来|我等你|2000|mandarin;赵雷|成都|无法长大|2016|mandarin;张学友|吻别|吻别|1993|mandarin;"
        "Beyond|海阔天空|乐与怒|1993|cantonese;Beyond|光辉岁月|命运派对|1990|cantonese;"
        "孙燕姿|遇见|The Moment|2003|mandarin;Taylor Swift|Love Story|Fearless|2008|english;"
        "Adele|Someone Like You|21|2011|english",
        ";",
    )
]

# category: (weight, min days, max days, session HH:MM, price floor CNY, venue templates)
SHOW_CATEGORIES: dict[str, tuple[float, int, int, str, int, list[str]]] = {
    "concert": (0.28, 1, 2, "19:30", 180, ["{c}奥体中心体育场", "{c}体育馆", "{c}国际体育中心"]),
    "drama": (0.18, 3, 8, "19:30", 80, ["{c}大剧院", "{c}话剧艺术中心", "{c}保利剧院"]),
    "musical": (0.12, 4, 12, "19:30", 120, ["{c}大剧院", "{c}文化艺术中心"]),
    "crosstalk": (0.10, 1, 1, "19:30", 80, ["{c}曲艺剧场", "{c}人民剧场"]),
    "opera": (0.08, 1, 2, "19:15", 60, ["{c}人民剧场", "{c}大剧院"]),
    "children": (0.10, 2, 5, "10:30", 60, ["{c}儿童艺术剧院", "{c}文化艺术中心"]),
    "dance": (0.08, 2, 3, "19:30", 100, ["{c}大剧院", "{c}保利剧院"]),
    "acrobatics": (0.06, 5, 20, "19:00", 120, ["{c}杂技城", "{c}马戏城"]),
}
OPERA_CLASSICS = dict(
    x.split(":")
    for x in _w(
        "霸王别姬:京剧 贵妃醉酒:京剧 锁麟囊:京剧 穆桂英挂帅:京剧 空城计:京剧 白蛇传:京剧 "
        "牡丹亭:昆曲 天仙配:黄梅戏 梁祝:越剧"
    )
)
TOUR_WORDS = _w("无限 光年 回声 漫游 星火 重逢 旷野 心之所向 如约 浪潮 此刻 万物生长")
TROUPES = ["德云社", "青曲社", "嘻哈包袱铺", "笑乐汇"]

# --- TV -------------------------------------------------------------------------------------------------
# channel id: (name, "HH:MM title genre kind; ..."). kind fixed | series | movie | doc: the titles of
# series (a drama runs 40 days, two episodes a day), movie and doc slots are chosen per date.
TV_CHANNELS = {
    "cctv1": (
        "CCTV-1 综合",
        "05:00 人与自然 纪录 fixed; 06:00 朝闻天下 新闻 fixed; 09:00 上午剧场 电视剧 series; "
        "12:00 新闻30分 新闻 fixed; 12:35 今日说法 法治 fixed; 13:13 下午剧场 电视剧 series; "
        "17:00 第一动画乐园 少儿 fixed; 19:00 新闻联播 新闻 fixed; 19:31 天气预报 新闻 fixed; "
        "19:39 焦点访谈 新闻 fixed; 20:00 黄金档剧场 电视剧 series; 22:00 晚间新闻 新闻 fixed; "
        "22:38 纪录片 纪录 doc",
    ),
    "cctv2": (
        "CCTV-2 财经",
        "06:00 第一时间 财经 fixed; 09:00 正点财经 财经 fixed; 12:00 经济半小时 财经 fixed; "
        "13:00 是真的吗 生活 fixed; 17:00 交易时间 财经 fixed; 19:00 经济信息联播 财经 fixed; "
        "20:30 对话 财经 fixed; 21:30 经济半小时 财经 fixed; 22:30 财经纪录 纪录 doc",
    ),
    "cctv3": (
        "CCTV-3 综艺",
        "06:00 综艺喜乐汇 综艺 fixed; 09:00 开门大吉 综艺 fixed; 12:00 我的艺术清单 综艺 fixed; "
        "15:00 星光大道 综艺 fixed; 19:30 向幸福出发 综艺 fixed; 21:00 黄金100秒 综艺 fixed",
    ),
    "cctv5": (
        "CCTV-5 体育",
        "06:00 体育晨报 体育 fixed; 08:00 赛事集锦 体育 fixed; 12:00 体育新闻 体育 fixed; "
        "14:00 赛事转播 体育 fixed; 18:00 体育新闻 体育 fixed; 19:30 赛事直播 体育 fixed; "
        "22:00 天下足球 体育 fixed; 23:30 体坛快讯 体育 fixed",
    ),
    "cctv6": (
        "CCTV-6 电影",
        "08:00 电影 电影 movie; 10:10 电影 电影 movie; 12:20 电影 电影 movie; "
        "14:30 电影 电影 movie; 16:40 今日影评 电影 fixed; 18:10 电影 电影 movie; 20:15 电影 电影 movie; "
        "22:20 电影 电影 movie",
    ),
    "cctv8": (
        "CCTV-8 电视剧",
        "07:00 早间剧场 电视剧 series; 12:00 午间剧场 电视剧 series; "
        "16:00 下午剧场 电视剧 series; 19:30 黄金强档 电视剧 series; 22:00 晚间剧场 电视剧 series",
    ),
    "cctv9": (
        "CCTV-9 纪录",
        "06:00 纪录片 纪录 doc; 10:00 纪录片 纪录 doc; 14:00 纪录片 纪录 doc; "
        "20:00 特别呈现 纪录 doc; 22:00 纪录片 纪录 doc",
    ),
    "cctv10": (
        "CCTV-10 科教",
        "06:00 健康之路 科教 fixed; 09:00 探索·发现 科教 fixed; 12:45 百家讲坛 科教 fixed; "
        "17:30 人物 科教 fixed; 19:00 讲述 科教 fixed; 20:00 探索·发现 科教 fixed; "
        "21:00 百家讲坛 科教 fixed; 22:00 自然传奇 科教 fixed",
    ),
    "cctv13": (
        "CCTV-13 新闻",
        "00:00 午夜新闻 新闻 fixed; 06:00 朝闻天下 新闻 fixed; 09:00 新闻直播间 新闻 fixed; "
        "18:00 共同关注 新闻 fixed; 19:00 新闻联播 新闻 fixed; 19:30 新闻直播间 新闻 fixed; "
        "20:00 东方时空 新闻 fixed; 21:30 新闻1+1 新闻 fixed; 22:00 国际时讯 新闻 fixed",
    ),
    "cctv14": (
        "CCTV-14 少儿",
        "06:00 动画大放映 少儿 fixed; 08:00 智慧树 少儿 fixed; 12:00 动画大放映 少儿 fixed; "
        "17:00 动画城 少儿 fixed; 19:00 大风车 少儿 fixed; 20:00 动画剧场 少儿 series",
    ),
    "hunan_tv": (
        "湖南卫视",
        "07:00 晨间剧场 电视剧 series; 12:00 午间剧场 电视剧 series; "
        "18:30 湖南新闻联播 新闻 fixed; 19:30 金鹰独播剧场 电视剧 series; 22:00 周播综艺 综艺 fixed",
    ),
    "zhejiang_tv": (
        "浙江卫视",
        "07:00 早间剧场 电视剧 series; 12:00 中国蓝剧场 电视剧 series; "
        "18:30 浙江新闻联播 新闻 fixed; 19:30 中国蓝剧场 电视剧 series; 21:20 周播综艺 综艺 fixed",
    ),
    "jiangsu_tv": (
        "江苏卫视",
        "07:00 早间剧场 电视剧 series; 12:00 午间剧场 电视剧 series; "
        "18:30 江苏新时空 新闻 fixed; 19:30 幸福剧场 电视剧 series; 21:20 非诚勿扰 综艺 fixed",
    ),
    "dragon_tv": (
        "东方卫视",
        "07:00 看东方 新闻 fixed; 12:00 午间剧场 电视剧 series; 18:30 东方新闻 新闻 fixed; "
        "19:30 东方剧场 电视剧 series; 21:30 周播综艺 综艺 fixed",
    ),
    "beijing_tv": (
        "北京卫视",
        "07:00 早间剧场 电视剧 series; 12:00 午间剧场 电视剧 series; "
        "18:30 北京新闻 新闻 fixed; 19:30 品质剧场 电视剧 series; 21:30 养生堂 生活 fixed",
    ),
}
DOC_TITLES = _w(
    "航拍中国 舌尖上的中国 如果国宝会说话 大国工匠 我在故宫修文物 河西走廊 美丽中国 中国通史 超级工程"
)

# --- sports ---------------------------------------------------------------------------------------------
# league: (Chinese name, sport, teams, season start (month, day), days between rounds, Beijing kickoff times)
_CSL = (
    "上海海港 上海申花 山东泰山 成都蓉城 北京国安 天津津门虎 浙江队 武汉三镇 河南队 长春亚泰 青岛海牛 沧州雄狮 \
梅州客家 深圳新鹏城 青岛西海岸 南通支云"
)
_EPL = (
    "曼城 阿森纳 利物浦 曼联 切尔西 热刺 纽卡斯尔联 阿斯顿维拉 布莱顿 西汉姆联 水晶宫 富勒姆 布伦特福德 埃弗顿 \
狼队 诺丁汉森林 伯恩茅斯 莱斯特城 伊普斯维奇 南安普顿"
)
_LIGA = (
    "皇家马德里 巴塞罗那 马德里竞技 皇家社会 毕尔巴鄂竞技 比利亚雷亚尔 皇家贝蒂斯 塞维利亚 瓦伦西亚 赫罗纳 \
奥萨苏纳 塞尔塔 马略卡 赫塔菲 拉斯帕尔马斯 阿拉维斯 巴列卡诺 西班牙人 莱加内斯 巴拉多利德"
)
_NBA = (
    "湖人 勇士 凯尔特人 热火 雄鹿 掘金 太阳 快船 独行侠 76人 尼克斯 篮网 公牛 骑士 老鹰 猛龙 步行者 魔术 黄蜂 \
奇才 活塞 国王 开拓者 爵士 雷霆 森林狼 灰熊 鹈鹕 马刺 火箭"
)
_CBA = (
    "广东宏远 辽宁本钢 浙江广厦 上海久事 北京首钢 山东高速 新疆伊力特 深圳马可波罗 浙江稠州金租 青岛国信海天 \
山西汾酒 广州龙狮 南京同曦 吉林九台农商银行 北京控股 天津先行者 福建浔兴股份 江苏肯帝亚 四川金强 宁波町渟"
)
LEAGUES: dict[str, tuple[str, str, list[str], tuple[int, int], int, list[str]]] = {
    "csl": ("中超", "football", _w(_CSL), (3, 1), 7, _w("15:30 19:00 19:35 20:00")),
    "epl": ("英超", "football", _w(_EPL), (8, 10), 7, _w("19:30 22:00 00:30 03:00")),
    "la_liga": ("西甲", "football", _w(_LIGA), (8, 15), 7, _w("20:00 22:15 00:30 03:00")),
    "nba": ("NBA", "basketball", _w(_NBA), (10, 22), 3, _w("07:30 08:00 09:00 10:30 11:00")),
    "cba": ("CBA", "basketball", _w(_CBA), (10, 12), 4, _w("19:35 20:00")),
}
TEAM_ALIASES = dict(
    pair.split(":")
    for pair in _w(
        "皇马:皇家马德里 巴萨:巴塞罗那 马竞:马德里竞技 枪手:阿森纳 红军:利物浦 蓝军:切尔西 纽卡:纽卡斯尔联 "
        "维拉:阿斯顿维拉 西汉姆:西汉姆联 莱斯特:莱斯特城 海港:上海海港 申花:上海申花 泰山:山东泰山 国安:北京国安 "
        "蓉城:成都蓉城 广东:广东宏远 辽宁:辽宁本钢 广厦:浙江广厦 首钢:北京首钢 新疆:新疆伊力特 绿军:凯尔特人 "
        "小牛:独行侠 费城76人:76人 曼彻斯特城:曼城 曼彻斯特联:曼联"
    )
)

# --- ebooks ---------------------------------------------------------------------------------------------
EBOOK_CATEGORIES: dict[str, tuple[list[str], tuple[float, float]]] = {
    "fiction": (["{a}{b}", "{a}的{c}", "{c}{a}"], (9.9, 39.9)),
    "scifi": (["{a}纪元", "{c}计划", "{a}星图", "第{n}个{c}"], (9.9, 45.0)),
    "mystery": (["{a}谜案", "{c}的秘密", "{a}疑云", "{c}杀人事件"], (12.0, 42.0)),
    "history": (["{d}往事", "{d}风云", "细说{d}", "{d}兴亡录"], (19.9, 68.0)),
    "business": (["{e}之道", "从零到{e}", "{e}的逻辑", "{e}思维"], (25.0, 79.0)),
    "self_help": (["{f}的力量", "学会{f}", "{f}练习", "每天{f}一点点"], (15.0, 49.0)),
    "children": (["{g}的冒险", "小{g}找朋友", "{g}和{g2}"], (6.9, 29.9)),
    "technology": (["{h}实战", "深入理解{h}", "{h}从入门到精通", "{h}设计与实现"], (39.0, 99.0)),
}
EBOOK_WORDS = {
    "a": _w("长夜 风城 白塔 雾岛 晚潮 青山 孤灯 旧梦 远岸 银河 沉默 北方"),
    "b": _w("之上 以南 来客 旧事 手记 余温 往生 人家"),
    "c": _w("时间 镜子 信使 钟表匠 旅人 守夜人 第七天 画家"),
    "d": _w("大唐 两宋 明朝 晚清 三国 战国 汉武 丝路"),
    "e": _w("增长 复利 长期主义 品牌 定价 管理 创新 极简"),
    "f": _w("专注 自律 情绪 沟通 睡眠 复盘 阅读 表达"),
    "g": _w("小熊 兔子 小狐狸 企鹅 小象 松鼠"),
    "h": _w("Python Rust Kubernetes 机器学习 数据库 分布式系统 计算机网络 前端工程"),
}
# title|author|category|year — well-known classics
EBOOK_CLASSICS = [
    tuple(x.split("|"))
    for x in _w(
        "红楼梦|曹雪芹|fiction|1791 西游记|吴承恩|fiction|1592 三国演义|罗贯中|history|1522 水浒传|施耐庵|fiction|1589 "
        "呐喊|鲁迅|fiction|1923 彷徨|鲁迅|fiction|1926 朝花夕拾|鲁迅|fiction|1928 边城|沈从文|fiction|1934 "
        "骆驼祥子|老舍|fiction|1937 家|巴金|fiction|1933 围城|钱钟书|fiction|1947 史记|司马迁|history|-91"
    )
]
# category: "title|author|year" — well-known books by well-known authors (titles and authors are facts)
EBOOK_KNOWN: dict[str, list[str]] = {
    "fiction": _w(
        "活着|余华|1993 许三观卖血记|余华|1995 在细雨中呼喊|余华|1991 兄弟|余华|2005 文城|余华|2021 "
        "平凡的世界|路遥|1986 人生|路遥|1982 白鹿原|陈忠实|1993 红高粱家族|莫言|1987 丰乳肥臀|莫言|1995 "
        "生死疲劳|莫言|2006 蛙|莫言|2009 檀香刑|莫言|2001 长恨歌|王安忆|1995 繁花|金宇澄|2013 "
        "一句顶一万句|刘震云|2009 我不是潘金莲|刘震云|2012 尘埃落定|阿来|1998 额尔古纳河右岸|迟子建|2005 "
        "秦腔|贾平凹|2005 废都|贾平凹|1993 黄金时代|王小波|1991 倾城之恋|张爱玲|1943 半生缘|张爱玲|1948 "
        "城南旧事|林海音|1960 四世同堂|老舍|1944 茶馆|老舍|1957 寒夜|巴金|1947 子夜|茅盾|1933 "
        "我与地坛|史铁生|1991 人世间|梁晓声|2017 人生海海|麦家|2019 长安的荔枝|马伯庸|2022 "
        "两京十五日|马伯庸|2020 撒哈拉的故事|三毛|1976 文化苦旅|余秋雨|1992"
    ),
    "scifi": _w(
        "三体|刘慈欣|2008 三体Ⅱ：黑暗森林|刘慈欣|2008 三体Ⅲ：死神永生|刘慈欣|2010 球状闪电|刘慈欣|2004 "
        "流浪地球|刘慈欣|2000 超新星纪元|刘慈欣|2003 北京折叠|郝景芳|2016 荒潮|陈楸帆|2013 地铁|韩松|2010 "
        "银河帝国：基地|阿西莫夫|1951 沙丘|弗兰克·赫伯特|1965 海伯利安|丹·西蒙斯|1989"
    ),
    "mystery": _w(
        "白夜行|东野圭吾|1999 嫌疑人X的献身|东野圭吾|2005 解忧杂货店|东野圭吾|2012 恶意|东野圭吾|1996 "
        "无人生还|阿加莎·克里斯蒂|1939 东方快车谋杀案|阿加莎·克里斯蒂|1934 尼罗河上的惨案|阿加莎·克里斯蒂|1937 "
        "长夜难明|紫金陈|2017 坏小孩|紫金陈|2014 无证之罪|紫金陈|2014 鬼吹灯|天下霸唱|2006 "
        "盗墓笔记|南派三叔|2007 尸语者|法医秦明|2012"
    ),
    "history": _w(
        "万历十五年|黄仁宇|1982 中国大历史|黄仁宇|1989 明朝那些事儿|当年明月|2006 国史大纲|钱穆|1940 "
        "中国历代政治得失|钱穆|1952 乡土中国|费孝通|1948 人类简史|尤瓦尔·赫拉利|2014 "
        "枪炮、病菌与钢铁|贾雷德·戴蒙德|1997 叫魂|孔飞力|1990 天朝的崩溃|茅海建|1995 "
        "显微镜下的大明|马伯庸|2019 资治通鉴|司马光|1084"
    ),
    "business": _w(
        "穷查理宝典|查理·芒格|2005 原则|瑞·达利欧|2017 从0到1|彼得·蒂尔|2014 影响力|罗伯特·西奥迪尼|1984 "
        "金字塔原理|芭芭拉·明托|1978 浪潮之巅|吴军|2011 激荡三十年|吴晓波|2007 腾讯传|吴晓波|2016 "
        "创新者的窘境|克莱顿·克里斯坦森|1997 富爸爸穷爸爸|罗伯特·清崎|1997 聪明的投资者|本杰明·格雷厄姆|1949 "
        "精益创业|埃里克·莱斯|2011"
    ),
    "self_help": _w(
        "被讨厌的勇气|岸见一郎|2013 刻意练习|安德斯·艾利克森|2016 自控力|凯利·麦格尼格尔|2012 "
        "非暴力沟通|马歇尔·卢森堡|1999 原子习惯|詹姆斯·克利尔|2018 高效能人士的七个习惯|史蒂芬·柯维|1989 "
        "少有人走的路|M·斯科特·派克|1978 心流|米哈里·契克森米哈赖|1990"
    ),
    "children": _w(
        "小王子|圣埃克苏佩里|1943 草房子|曹文轩|1997 青铜葵花|曹文轩|2005 窗边的小豆豆|黑柳彻子|1981 "
        "夏洛的网|E·B·怀特|1952 笑猫日记|杨红樱|2006 淘气包马小跳|杨红樱|2003 没头脑和不高兴|任溶溶|1956 "
        "皮皮鲁传|郑渊洁|1985 舒克和贝塔|郑渊洁|1985 猜猜我有多爱你|山姆·麦克布雷尼|1994"
    ),
    "technology": _w(
        "深入理解计算机系统|兰德尔·布莱恩特|2003 算法导论|托马斯·科尔曼|1990 代码大全|史蒂夫·麦康奈尔|1993 "
        "人月神话|弗雷德里克·布鲁克斯|1975 流畅的Python|卢西亚诺·拉马略|2015 "
        "Python编程：从入门到实践|埃里克·马瑟斯|2015 机器学习|周志华|2016 深度学习|伊恩·古德费洛|2016 "
        "数学之美|吴军|2012 统计学习方法|李航|2012 重构|马丁·福勒|1999 黑客与画家|保罗·格雷厄姆|2004 "
        "数据密集型应用系统设计|马丁·克莱普曼|2017"
    ),
}
EBOOK_EN = {
    "technology": _w("Python Rust Kubernetes Databases Networking Compilers", None),
    "business": _w("Strategy Leadership Pricing Growth Negotiation Marketing", None),
}
EBOOK_EN_PREFIX = _w("Practical Modern Effective Learning Mastering Designing")
PUBLISHERS = _w("人民文学出版社 中信出版社 机械工业出版社 译林出版社 上海译文出版社 新星出版社 接力出版社")


# --- generators -----------------------------------------------------------------------------------------
def person(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.randint(1, 2)))


def cinemas(rng: random.Random) -> Rows:
    rows: Rows = []
    for city in sorted(CITIES):
        tier = CITIES[city][2]
        for site in rng.sample(CINEMA_SITES, {1: 14, 2: 9, 3: 5}[tier]):
            brand = rng.choice(CINEMA_BRANDS)
            price = {1: 46.0, 2: 39.0, 3: 33.0}[tier] + rng.randint(-5, 8)
            imax = int(rng.random() < (0.55 if tier == 1 else 0.3))
            cid = f"C{len(rows) + 1:04d}"
            rows.append((cid, city, f"{brand}（{site}店）", brand, rng.randint(5, 12), price, imax))
    return rows


def movies(rng: random.Random) -> Rows:
    """Eight releases a month on Fridays, plus the Spring Festival and National Day slates, 2018–2030."""
    from plugineval.normalize.holidays import holiday_date

    titles: set[str] = set()
    rows: Rows = []
    for year in range(2018, 2031):
        releases: list[tuple[date, float]] = []
        for month in range(1, 13):
            days = [date(year, month, k) for k in range(1, 29)]
            fridays = [d for d in days if d.weekday() == 4]
            releases += [(rng.choice(fridays), 0.0) for _ in range(8)]
        spring = holiday_date("春节", year)
        if spring is not None:
            releases += [(spring, 0.35)] * 5
        releases += [(date(year, 10, 1), 0.25)] * 3
        for rel, boost in sorted(releases):
            title, a, c = "", "", ""
            while not title or title in titles or a == c:
                a, b, c = rng.choice(MOVIE_WORDS_A), rng.choice(MOVIE_WORDS_B), rng.choice(MOVIE_WORDS_A)
                title = rng.choice(MOVIE_PATTERNS).format(a=a, b=b, c=c)
            titles.add(title)
            end = rel + timedelta(days=rng.randint(21, 63) + int(boost * 40))
            pop = round(min(1.0, rng.random() ** 1.5 + boost), 3)
            genre, minutes, rating = (
                rng.choice(MOVIE_GENRES),
                rng.randrange(88, 165),
                round(5 + rng.random() * 4.3, 1),
            )
            mid = f"M{len(rows) + 1:05d}"
            rows.append(
                (mid, title, genre, minutes, rel.isoformat(), end.isoformat(), rating, pop, person(rng))
            )
    return retitle(rows)


def songs(rng: random.Random) -> tuple[Rows, list[str]]:
    rows: Rows = []
    for artist, title, album, ryear, lang in REAL_SONGS:
        plays = 5_000_000 + int(stable_unit("song-plays", title) * 50_000_000)
        rows.append(
            (f"S{len(rows) + 1:05d}", title, artist, album, int(ryear), 200 + len(title) * 17, lang, 1, plays)
        )
    langs, weights = list(MUSIC_LANGS), list(MUSIC_LANGS.values())
    artists: list[str] = []
    while len(artists) < 160:
        name = person(rng) if rng.random() < 0.75 else rng.choice(SONG_WORDS_A) + rng.choice(BAND_SUFFIX)
        if name in artists:
            continue
        artists.append(name)
        lang = rng.choices(langs, weights)[0]
        for k in range(rng.randint(2, 4)):
            album = rng.choice(ALBUM_WORDS) + ("" if k == 0 else f" {k + 1}")
            year = rng.randint(2005, 2029)
            for _ in range(rng.randint(6, 10)):
                title = rng.choice(SONG_WORDS_A) + rng.choice(SONG_WORDS_B)
                plays, vip = int(rng.paretovariate(1.3) * 20_000), int(rng.random() < 0.3)
                rows.append(
                    (
                        f"S{len(rows) + 1:05d}",
                        title,
                        name,
                        album,
                        year,
                        rng.randint(150, 330),
                        lang,
                        vip,
                        plays,
                    )
                )
    return rows, artists


def _show_title(cat: str, rng: random.Random, artist: str) -> tuple[str, str]:
    if cat == "concert":  # the drawn (invented) artist picks a real singer: the draws stay the same
        singer = SINGERS[int(stable_unit("singer", artist) * len(SINGERS))]
        return f"{singer}「{rng.choice(TOUR_WORDS)}」巡回演唱会", singer
    if cat == "opera":
        play = rng.choice(sorted(OPERA_CLASSICS))
        return f"{OPERA_CLASSICS[play]}《{play}》", f"{OPERA_CLASSICS[play]}院团"
    if cat == "crosstalk":
        troupe = rng.choice(TROUPES)
        return f"{troupe}相声专场", troupe
    drawn = rng.choice(MOVIE_WORDS_A) + rng.choice(MOVIE_WORDS_B)
    works = STAGE_WORKS[cat]
    name = works[int(stable_unit("stage-work", cat, drawn) * len(works))]
    prefix = {
        "drama": "话剧",
        "musical": "音乐剧",
        "children": "儿童剧",
        "dance": "舞剧",
        "acrobatics": "杂技秀",
    }
    return f"{prefix[cat]}《{name}》", f"{name}剧组"


def shows(rng: random.Random, artists: list[str]) -> Rows:
    cats = sorted(SHOW_CATEGORIES)
    weights = [SHOW_CATEGORIES[c][0] for c in cats]
    rows: Rows = []
    for city in sorted(CITIES):
        tier = CITIES[city][2]
        per_month = {1: 8, 2: 4, 3: 2}[tier]
        for year in range(2019, 2031):
            if tier <= 2:  # a resident weekend crosstalk club, all year round
                troupe = "德云社" if city in ("北京", "天津") else rng.choice(TROUPES[1:])
                dates = (f"{year}-01-01", f"{year}-12-31")
                venue = f"{city}{troupe}剧场"
                sid = f"SH{len(rows) + 1:06d}"
                rows.append(
                    (
                        sid,
                        f"{troupe}周末相声大会",
                        "crosstalk",
                        city,
                        venue,
                        troupe,
                        *dates,
                        "19:30",
                        80.0,
                        380.0,
                    )
                )
            for month in range(1, 13):
                for _ in range(per_month):
                    cat = rng.choices(cats, weights)[0]
                    _, dmin, dmax, session, floor, venues = SHOW_CATEGORIES[cat]
                    start = date(year, month, rng.randint(1, 28))
                    end = start + timedelta(days=rng.randint(dmin, dmax) - 1)
                    title, performer = _show_title(cat, rng, rng.choice(artists))
                    venue = rng.choice(venues).format(c=city)
                    pmin = float(round(floor * (1 + rng.random()) / 10) * 10)
                    pmax = float(round(pmin * rng.uniform(3, 8) / 10) * 10)
                    dates = (start.isoformat(), end.isoformat())
                    sid = f"SH{len(rows) + 1:06d}"
                    rows.append((sid, title, cat, city, venue, performer, *dates, session, pmin, pmax))
    return rows


def round_robin(teams: list[str]) -> list[list[tuple[str, str]]]:
    """Double round robin by the circle method; home and away alternate as evenly as the draw allows."""
    arr, n = list(teams), len(teams)
    homes = dict.fromkeys(teams, 0)
    last_home = dict.fromkeys(teams, False)
    rounds: list[list[tuple[str, str]]] = []
    for _ in range(n - 1):
        rd = []
        for a, b in ((arr[i], arr[n - 1 - i]) for i in range(n // 2)):
            if (last_home[a], homes[a]) > (last_home[b], homes[b]):
                a, b = b, a  # the side that hosted last time, or more often, travels
            rd.append((a, b))
            homes[a] += 1
            last_home[a], last_home[b] = True, False
        rounds.append(rd)
        arr = [arr[0], arr[-1], *arr[1:-1]]
    return rounds + [[(b, a) for a, b in rd] for rd in rounds]


def matches(rng: random.Random) -> Rows:
    rows: Rows = []
    for league in sorted(LEAGUES):
        _, sport, teams, (m, d), gap, kickoffs = LEAGUES[league]
        for season in range(2019, 2031):
            order = sorted(teams)
            rng.shuffle(order)
            start = date(season, m, d)
            if sport == "football":
                start += timedelta(days=(5 - start.weekday()) % 7)  # the first Saturday
            label = str(season) if league == "csl" else f"{season}-{(season + 1) % 100:02d}"
            for k, rd in enumerate(round_robin(order)):
                for i, (home, away) in enumerate(rd):
                    day = start + timedelta(days=k * gap + (i % 2 if sport == "football" else 0))
                    mid = f"{league}-{season}-{k + 1:02d}-{i + 1:02d}"
                    rows.append(
                        (mid, league, label, k + 1, day.isoformat(), rng.choice(kickoffs), home, away)
                    )
    return rows


def tv_slots() -> Rows:
    rows: Rows = []
    for ch, (name, spec) in sorted(TV_CHANNELS.items()):
        for i, slot in enumerate(spec.split("; ")):
            t, title, genre, kind = slot.split()
            rows.append((ch, name, i, parse_hhmm(t), title, genre, kind))
    return rows


def ebooks(rng: random.Random) -> Rows:
    rows: Rows = []
    for title, author, cat, year in EBOOK_CLASSICS:
        price = 0.0 if int(year) < 1900 else 19.9
        rows.append((f"B{len(rows) + 1:05d}", title, author, cat, "zh", price, 1, 9.2, 300 + len(title) * 90))
        rows[-1] += ("finished", PUBLISHERS[0], int(year))
    for cat in sorted(EBOOK_KNOWN):
        lo, hi = EBOOK_CATEGORIES[cat][1]
        for known in EBOOK_KNOWN[cat]:
            title, author, year = known.split("|")
            price, free, rating = (
                round(rng.uniform(lo, hi), 1),
                int(rng.random() < 0.3),
                rng.randint(90, 97) / 10,
            )
            words = rng.randint(80, 900)
            rows.append(
                (f"B{len(rows) + 1:05d}", title, author, cat, "zh", price, free, rating, words, "finished")
            )
            rows[-1] += (rng.choice(PUBLISHERS), int(year))
    # Filler titles for keyword searches, by invented authors (each named once, so an author with
    # two books is a real one); rated under 9.0, below every known book.
    seen: set[str] = {r[1] for r in rows}
    authors: set[str] = {r[2] for r in rows}
    for cat in sorted(EBOOK_CATEGORIES):
        patterns, (lo, hi) = EBOOK_CATEGORIES[cat]
        for _ in range(60):
            w = {k: rng.choice(v) for k, v in EBOOK_WORDS.items()}
            title = rng.choice(patterns).format(
                n=rng.choice("三五七九"), g2=rng.choice(EBOOK_WORDS["g"]), **w
            )
            if title in seen:
                title += f"（{rng.choice(['上', '下', '修订版', '典藏版'])}）"
            seen.add(title)
            lang = "en" if cat in EBOOK_EN and rng.random() < 0.15 else "zh"
            if lang == "en":
                title = f"{rng.choice(EBOOK_EN_PREFIX)} {rng.choice(EBOOK_EN[cat])}"
            price, free, rating = (
                round(rng.uniform(lo, hi), 1),
                int(rng.random() < 0.4),
                round(6 + rng.random() * 2.9, 1),
            )
            status = "serializing" if cat in ("fiction", "scifi") and rng.random() < 0.2 else "finished"
            bid = f"B{len(rows) + 1:05d}"
            author = person(rng)
            while author in authors:
                author = person(rng)
            authors.add(author)
            rows.append((bid, title, author, cat, lang, price, free, rating, rng.randint(60, 900), status))
            rows[-1] += (rng.choice(PUBLISHERS), rng.randint(2008, 2026))
    return rows
