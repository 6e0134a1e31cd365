"""美食与生活 food: cuisines, menus, recipes, utility tariffs, number segments, housekeeping; store generation.

Menus and recipes are written compactly as text (dish:low-high; name|cuisine|…) and parsed at import.
"""

from __future__ import annotations

import json
import random
import sqlite3
from typing import Any

from ..runtime import stable_unit
from ._common import CITIES

# cuisine id -> "Chinese name; restaurant suffixes; dish:low-high ..."
_CUISINE_TEXT = {
    "sichuan": "川菜;川菜馆,川味小馆,蜀菜馆;宫保鸡丁:28-42 麻婆豆腐:18-28 鱼香肉丝:26-38 回锅肉:32-48 水煮鱼:58-88 夫妻肺片:32-46 辣子鸡:42-68 酸菜鱼:58-89 干煸四季豆:22-32 米饭:2-3 担担面:14-22 毛血旺:48-72",
    "hunan": "湘菜;湘菜馆,湘味坊,湘厨;剁椒鱼头:68-98 农家小炒肉:32-46 辣椒炒肉:30-42 毛氏红烧肉:48-68 口味虾:88-138 擂辣椒皮蛋:18-26 酸豆角肉末:22-32 米饭:2-3 外婆菜炒蛋:22-30 干锅花菜:26-36",
    "cantonese": "粤菜;茶餐厅,粤菜馆,烧腊店;白切鸡:48-78 蜜汁叉烧:38-58 烧鹅饭:32-46 虾饺皇:28-38 干炒牛河:28-38 菠萝油:12-18 煲仔饭:32-48 豉汁蒸排骨:32-46 丝袜奶茶:14-20 艇仔粥:18-26",
    "shandong": "鲁菜;鲁菜馆,齐鲁人家;九转大肠:58-78 糖醋里脊:38-52 葱烧海参:128-198 油焖大虾:78-118 把子肉:22-32 锅塌豆腐:26-36 米饭:2-3 煎饼卷大葱:12-18",
    "jiangzhe": "江浙菜;江南小馆,杭帮菜馆,本帮菜馆;东坡肉:48-68 西湖醋鱼:68-98 龙井虾仁:78-118 松鼠鳜鱼:98-158 油爆虾:68-98 腌笃鲜:48-68 蟹粉小笼:32-48 葱油拌面:14-22 米饭:2-3 响油鳝糊:68-98",
    "northeastern": "东北菜;东北饺子馆,东北人家,铁锅炖;锅包肉:38-52 地三鲜:24-32 小鸡炖蘑菇:58-88 猪肉酸菜饺子:26-36 溜肉段:36-48 东北大拉皮:22-30 杀猪菜:38-52 米饭:2-3",
    "northwestern": "西北菜;西北菜馆,兰州牛肉面,陕味面馆;牛肉拉面:16-24 肉夹馍:12-18 羊肉泡馍:32-46 油泼面:16-24 大盘鸡:68-98 手抓羊肉:78-118 凉皮:10-16 烤羊肉串:3-6",
    "hotpot": "火锅;火锅,老火锅,串串香;鸳鸯锅底:38-58 麻辣牛油锅底:48-68 鲜毛肚:38-58 肥牛卷:42-62 鸭血:16-24 虾滑:32-46 嫩牛肉:38-52 土豆片:8-12 宽粉:10-14 冰粉:8-12",
    "bbq": "烧烤;烧烤,烤串,烤肉;羊肉串（10串）:30-45 烤五花肉:28-38 烤生蚝（6只）:36-58 烤茄子:14-20 烤鸡翅:12-18 烤韭菜:8-12 烤馒头片:6-10 冰啤酒:8-15",
    "fast_food": "快餐;快餐,汉堡,简餐;香辣鸡腿堡:18-26 炸鸡块:16-24 薯条:10-14 可乐:7-10 黄焖鸡米饭:18-26 卤肉饭:16-22 鸡排饭:18-26 番茄牛腩饭:26-34",
    "japanese": "日料;日料,寿司,居酒屋;三文鱼刺身:58-98 鳗鱼饭:48-78 豚骨拉面:38-52 天妇罗:38-58 加州卷:28-42 味噌汤:12-18 寿喜烧:88-138",
    "korean": "韩餐;韩式料理,韩国烤肉,部队锅;石锅拌饭:32-42 部队火锅:68-98 韩式炸鸡:58-88 辣炒年糕:26-36 烤五花肉:58-78 大酱汤:26-34 冷面:26-36",
    "western": "西餐;西餐厅,牛排馆,披萨;西冷牛排:128-198 意式肉酱面:48-68 玛格丽特披萨:58-88 凯撒沙拉:38-52 奶油蘑菇汤:28-38 炸鱼薯条:58-78 提拉米苏:32-46",
    "noodles": "面馆;面馆,面庄,粉面馆;红烧牛肉面:22-32 重庆小面:12-18 炸酱面:18-26 阳春面:10-16 螺蛳粉:16-24 酸辣粉:12-18 煎蛋:3-4 卤蛋:2-3",
    "dessert": "甜品饮品;甜品站,奶茶,糖水铺;珍珠奶茶:12-20 杨枝甘露:18-28 芒果班戟:22-32 双皮奶:14-22 手打柠檬茶:14-22 烧仙草:12-18 芋圆冰:14-22",
}
# cuisine id -> (Chinese name, name suffixes: none, the chains' names are whole, dishes)
CUISINES: dict[str, tuple[str, list[str], list[tuple[str, int, int]]]] = {}
_DRAW_SUFFIX: dict[str, list[str]] = {}
for _k, _t in _CUISINE_TEXT.items():
    _zh, _suf, _menu = _t.split(";")
    _dishes = [
        (d, int(r.split("-")[0]), int(r.split("-")[1])) for d, r in (x.rsplit(":", 1) for x in _menu.split())
    ]
    CUISINES[_k] = (_zh, [""], _dishes)
    _DRAW_SUFFIX[_k] = _suf.split(",")

# The words the generator once joined into invented names (李记铁锅炖): its draws are kept, so every
# restaurant keeps its place, hours and menu; the name it gets is a real chain's (``CHAINS``).
_DRAW_PREFIX = [
    "蜀香",
    "渝味",
    "老街",
    "巷子",
    "阿婆",
    "小城",
    "一品",
    "福满",
    "聚福",
    "食光",
    "味道",
    "老王",
    "张记",
    "李记",
    "陈记",
    "好运",
    "红灯笼",
    "小院",
    "南门",
    "东门",
    "西口",
    "北巷",
    "金牌",
    "德顺",
    "和记",
    "鼎盛",
    "湘里",
    "悦来",
    "喜乐",
    "顺风",
    "大碗",
    "老灶",
    "山城",
    "江边",
    "湖畔",
    "竹林",
    "瓦屋",
    "石磨",
    "木桶",
    "铁锅",
]
# cuisine -> real restaurant chains whose fare the cuisine's menu is (names are facts)
CHAINS: dict[str, list[str]] = {
    k: v.split()
    for k, v in {
        "sichuan": "眉州东坡酒楼 巴国布衣 陈麻婆豆腐 成都映象 太二酸菜鱼 俏江南",
        "hunan": "费大厨辣椒炒肉 炊烟小炒黄牛肉 农耕记湖南土菜 望湘园 坛宗剁椒鱼头",
        "cantonese": "点都德 陶陶居 广州酒家 翠华餐厅 太兴茶餐厅",
        "shandong": "船歌鱼水饺 净雅大酒店",
        "jiangzhe": "外婆家 绿茶餐厅 新白鹿餐厅 弄堂里 南京大牌档 知味观 小南国",
        "northeastern": "东北人 老边饺子馆 喜家德水饺",
        "northwestern": "西贝莜面村 马子禄牛肉面 魏家凉皮 陈香贵兰州牛肉面 老米家泡馍",
        "hotpot": "海底捞火锅 小龙坎老火锅 大龙燚火锅 蜀大侠火锅 巴奴毛肚火锅 呷哺呷哺 珮姐老火锅 谭鸭血老火锅",
        "bbq": "很久以前羊肉串 木屋烧烤 丰茂烤串 聚点串吧",
        "fast_food": "老乡鸡 乡村基 真功夫 华莱士 塔斯汀",
        "japanese": "味千拉面 吉野家 争鲜回转寿司 元气寿司",
        "korean": "权金城 姜虎东白丁",
        "western": "必胜客 王品牛排 豪客来 萨莉亚",
        "noodles": "和府捞面 遇见小面 张拉拉 五谷渔粉 康师傅私房牛肉面",
        "dessert": "喜茶 奈雪的茶 蜜雪冰城 茶百道 古茗 满记甜品 一点点 CoCo都可",
    }.items()
}
# the gazetteer's restaurant names (the judge's ``store_names``): the chains, whole
NAME_PREFIX = sorted({c for v in CHAINS.values() for c in v})
# a chain's second and later branches in a city are named by a landmark (喜茶万象城店)
BRANCHES = [
    "万达广场",
    "万象城",
    "大悦城",
    "印象城",
    "吾悦广场",
    "龙湖天街",
    "银泰城",
    "凯德广场",
    "来福士",
    "步行街",
    "火车站",
    "大学城",
    "高新区",
    "老城区",
]


def chain_name(city: str, cuisine: str, drawn: str, taken: set[str]) -> str:
    """The name of a restaurant the generator drew as ``drawn``: one of the cuisine's chains (picked
    from the draw, so the same draw gives the same chain), plain the first time in ``city``, then
    with a landmark branch; ``taken`` holds the city's names so far."""
    chains = CHAINS[cuisine]
    k = int(stable_unit("chain", city, drawn) * len(chains))
    for i in range(len(chains)):
        c = chains[(k + i) % len(chains)]
        if c not in taken:
            return c
    start = int(stable_unit("branch", city, drawn) * len(BRANCHES))
    for i in range(len(BRANCHES)):
        name = f"{chains[k]}{BRANCHES[(start + i) % len(BRANCHES)]}店"
        if name not in taken:
            return name
    raise ValueError(f"no name left for a {cuisine} restaurant in {city}")


ROADS = [
    "人民路",
    "解放路",
    "中山路",
    "建设路",
    "和平路",
    "长江路",
    "文化路",
    "新华路",
    "南京路",
    "青年路",
    "学府路",
    "滨江大道",
    "科技路",
    "体育路",
    "光明街",
    "幸福路",
]
NO_RESERVATION = {"fast_food", "dessert"}

# Recipes: "name|cuisine|difficulty|minutes|servings|kcal per serving|ingredient:amount,…|step；step；…"
_RECIPE_TEXT = """
宫保鸡丁|sichuan|medium|25|2|420|鸡胸肉:300克,花生米:50克,干辣椒:8个,花椒:1小把,葱:2根,生抽:1勺,醋:1勺,白糖:1勺,淀粉:1勺|鸡胸肉切丁，加生抽、淀粉抓匀腌 10 分钟；生抽、醋、白糖、淀粉和清水调成碗汁；热油小火炸香花生米，盛出备用；下干辣椒、花椒炒香，放鸡丁大火滑炒至变色；加入葱段，倒入碗汁翻炒至浓稠，最后拌入花生米出锅
麻婆豆腐|sichuan|easy|20|2|310|嫩豆腐:1块,牛肉末:80克,郫县豆瓣酱:1勺,花椒粉:少许,蒜:3瓣,淀粉:1勺|豆腐切块，放入加盐的开水中焯 1 分钟捞出；热油炒散牛肉末至酥香；下豆瓣酱、蒜末炒出红油，加半碗清水烧开；放入豆腐小火烧 3 分钟，分两次勾芡；出锅撒花椒粉和葱花
鱼香肉丝|sichuan|medium|30|2|380|猪里脊:250克,木耳:50克,胡萝卜:半根,泡椒:2勺,葱姜蒜:适量,醋:1勺,白糖:1勺|里脊切丝，加料酒、淀粉腌制；木耳、胡萝卜切丝；糖、醋、生抽、淀粉调成鱼香汁；热油滑炒肉丝至变色盛出；炒香泡椒和葱姜蒜，下木耳胡萝卜丝翻炒；回锅肉丝，淋入鱼香汁翻匀出锅
剁椒鱼头|hunan|medium|35|3|360|胖头鱼鱼头:1个,剁椒:4勺,姜:1块,蒜:5瓣,蒸鱼豉油:2勺,葱:2根|鱼头洗净对半劈开，抹料酒和少许盐腌 10 分钟；盘底铺姜片，放上鱼头；剁椒与蒜末拌匀铺满鱼头；水开后大火蒸 12 分钟；淋蒸鱼豉油，撒葱花，浇一勺热油
辣椒炒肉|hunan|easy|20|2|450|五花肉:200克,青椒:4个,蒜:3瓣,豆豉:1小勺,生抽:1勺|五花肉切薄片，青椒斜切段；干锅煸炒青椒至表皮起皱，盛出；五花肉下锅煸出油脂；下蒜片、豆豉炒香，加青椒和生抽大火翻炒 1 分钟出锅
白切鸡|cantonese|medium|50|4|330|三黄鸡:1只,姜:1大块,葱:3根,沙姜:少许,生抽:2勺|鸡洗净，锅中水加姜葱烧开；提鸡浸烫三次后整只入锅，小火浸煮 25 分钟；捞出立即泡入冰水 10 分钟；姜蓉、葱花加盐，浇热油做蘸料；鸡斩件装盘，配蘸料食用
蜜汁叉烧|cantonese|medium|60|3|480|梅花肉:500克,叉烧酱:3勺,蜂蜜:2勺,生抽:1勺,蒜:4瓣|梅花肉切长条，扎孔；加叉烧酱、生抽、蒜末抓匀，冷藏腌一夜；烤箱 200℃ 烤 20 分钟；翻面刷蜂蜜再烤 15 分钟，表面微焦即可；稍凉后切片
东坡肉|jiangzhe|hard|120|4|620|带皮五花肉:600克,黄酒:1瓶,冰糖:30克,生抽:3勺,老抽:1勺,葱姜:适量|五花肉焯水切成方块，用棉线捆好；砂锅底铺葱姜，肉皮朝下码好；加黄酒、生抽、老抽、冰糖，不加水；大火烧开后转小火焖 90 分钟；翻面再焖 20 分钟，收汁装盅
松鼠鳜鱼|jiangzhe|hard|50|4|410|鳜鱼:1条,番茄酱:4勺,白糖:3勺,白醋:2勺,淀粉:适量|鳜鱼去骨留头尾，鱼肉打麦穗花刀；鱼身拍满淀粉，抖去多余的粉；油温七成热，提鱼尾浇油定型后整条炸至金黄；番茄酱、糖、醋加水熬成糖醋汁；将热汁浇在鱼身上
锅包肉|northeastern|medium|40|2|560|猪里脊:300克,土豆淀粉:150克,白糖:3勺,白醋:3勺,胡萝卜:少许,葱姜:适量|里脊切厚片，加盐和料酒腌制；淀粉加水泡成湿淀粉，挂在肉片上；炸至定型捞出，升高油温复炸至酥脆；糖、醋、盐调汁，炒香葱姜丝和胡萝卜丝；倒入肉片快速翻匀出锅
地三鲜|northeastern|easy|25|2|350|土豆:1个,茄子:1根,青椒:2个,蒜:3瓣,生抽:1勺,淀粉:1勺|土豆、茄子切滚刀块，青椒切块；土豆炸至金黄，茄子炸软，青椒过油；生抽、糖、淀粉加水调汁；蒜末炒香，倒入三样蔬菜和料汁翻匀
西红柿炒鸡蛋|home_style|easy|10|2|220|西红柿:2个,鸡蛋:3个,葱:1根,白糖:半勺,盐:少许|鸡蛋打散加少许盐，西红柿切块；热油炒鸡蛋至凝固盛出；下西红柿炒出汁水，加糖和盐；倒回鸡蛋翻炒均匀，撒葱花出锅
可乐鸡翅|home_style|easy|30|2|390|鸡翅中:10个,可乐:1罐,生抽:2勺,老抽:半勺,姜:3片|鸡翅两面划刀，冷水下锅焯水；少油把鸡翅两面煎至金黄；加姜片、生抽、老抽和整罐可乐；大火烧开转中火炖 15 分钟；大火收汁至浓稠
土豆炖牛肉|home_style|medium|80|3|420|牛腩:500克,土豆:2个,胡萝卜:1根,八角:2个,生抽:2勺,老抽:1勺,葱姜:适量|牛腩切块冷水下锅焯水；热油炒香葱姜八角，下牛腩翻炒，加生抽老抽上色；加开水没过牛腩，小火炖 50 分钟；放入土豆和胡萝卜块再炖 20 分钟；大火收汁，加盐调味
青椒土豆丝|home_style|easy|15|2|160|土豆:2个,青椒:1个,干辣椒:2个,醋:1勺,盐:少许|土豆切细丝，清水冲洗两遍去淀粉；青椒切丝；热油炒香干辣椒，下土豆丝大火快炒；加青椒丝、醋和盐，炒至断生出锅
红烧肉|home_style|medium|90|4|580|五花肉:500克,冰糖:20克,八角:2个,生抽:2勺,老抽:1勺,葱姜:适量|五花肉切块焯水；小火炒冰糖至焦糖色，下肉块翻炒上色；加葱姜、八角、生抽、老抽和开水；小火炖 60 分钟；大火收汁
羊肉泡馍|northwestern|hard|150|3|650|羊肉:800克,饦饦馍:3个,粉丝:1把,木耳:少许,花椒八角:适量|羊肉冷水浸泡去血水，焯水后加香料炖 2 小时；馍掰成黄豆大小的粒；羊肉汤烧开，下馍粒、粉丝、木耳和羊肉片；煮 2 分钟，配糖蒜和辣酱食用
石锅拌饭|korean|easy|30|1|560|米饭:1碗,牛肉末:80克,菠菜:1把,豆芽:1把,胡萝卜:半根,鸡蛋:1个,韩式辣酱:2勺|各样蔬菜分别焯水或炒熟，调少许盐和香油；牛肉末炒熟；石锅刷香油放米饭，小火加热出锅巴；码上蔬菜、牛肉和煎蛋；加辣酱拌匀食用
"""
RecipeRow = tuple[str, str, str, int, int, int, list[tuple[str, str]], list[str]]
CLASSIC_RECIPES: list[RecipeRow] = []
for _line in _RECIPE_TEXT.strip().splitlines():
    _n, _c, _d, _m, _s, _kc, _ing, _st = _line.split("|")
    _pairs = [(a, b) for a, b in (x.split(":") for x in _ing.split(","))]
    CLASSIC_RECIPES.append((_n, _c, _d, int(_m), int(_s), int(_kc), _pairs, _st.split("；")))

# Generated recipes: main ingredient "name:amount:cut:kcal per serving" x cooking method.
MAINS: list[tuple[str, str, str, int]] = [
    (a, b, c, int(d))
    for a, b, c, d in (
        x.split(":")
        for x in [
            "牛肉:300克:切片:330",
            "排骨:500克:剁段:420",
            "鸡腿:2个:去骨切块:360",
            "五花肉:300克:切片:520",
            "虾:300克:去虾线:210",
            "鲈鱼:1条:划刀:230",
            "豆腐:1块:切块:180",
            "鸡蛋:3个:打散:200",
            "土豆:2个:切块:190",
            "茄子:2根:切条:170",
            "豆角:300克:切段:150",
            "冬瓜:500克:切块:90",
            "西兰花:1颗:切小朵:110",
            "香菇:200克:切片:120",
            "鸡翅:8个:划刀:380",
            "羊肉:400克:切块:450",
        ]
    )
]
# method -> "name pattern|difficulty|minutes|cuisine|step；…|extra ingredient:amount,…"
_METHOD_TEXT = """
红烧|红烧{m}|medium|45|home_style|{m}{cut}，焯水后沥干；锅中少许油，小火炒出糖色；下{m}翻炒上色，加葱姜、生抽、老抽；加开水没过食材，小火炖 25 分钟；大火收汁，撒葱花出锅|冰糖:15克,生抽:2勺,老抽:1勺,葱姜:适量
清蒸|清蒸{m}|easy|25|cantonese|{m}{cut}，加少许盐和料酒腌 10 分钟；盘底铺姜丝，放上{m}；水开后大火蒸 10 分钟；淋蒸鱼豉油，撒葱丝，浇热油|姜:1块,葱:2根,蒸鱼豉油:2勺
蒜蓉|蒜蓉{m}|easy|20|cantonese|{m}{cut}；蒜末一半炸至金黄，与生蒜末混合加盐；将蒜蓉铺在{m}上；大火蒸 8 分钟或快炒 2 分钟，出锅撒葱花|蒜:1头,盐:少许
香辣|香辣{m}|medium|30|sichuan|{m}{cut}，加盐和淀粉抓匀；热油将{m}煎或炸至表面金黄；下干辣椒、花椒、蒜片炒香；倒入{m}和少许生抽翻炒，撒孜然和白芝麻出锅|干辣椒:10个,花椒:1小把,孜然:少许
番茄|番茄{m}汤|easy|30|home_style|番茄去皮切块，{m}{cut}；热油炒番茄出沙；加清水烧开，放入{m}；小火煮 15 分钟，加盐调味，撒葱花|番茄:2个,葱:1根,盐:少许
干锅|干锅{m}|medium|35|hunan|{m}{cut}，过油或焯水备用；干锅底铺洋葱片；炒香火锅底料、干辣椒和蒜；下{m}大火翻炒，加生抽和少许糖；倒入干锅，边加热边吃|洋葱:1个,火锅底料:1小块,干辣椒:6个
"""
METHODS: dict[str, tuple[str, str, int, str, list[str], list[tuple[str, str]]]] = {}
for _line in _METHOD_TEXT.strip().splitlines():
    _k, _p, _d, _m, _c, _st, _ex = _line.split("|")
    METHODS[_k] = (
        _p,
        _d,
        int(_m),
        _c,
        _st.split("；"),
        [(a, b) for a, b in (x.split(":") for x in _ex.split(","))],
    )

# utility -> (unit, [(tier upper bound, price per unit)], monthly base usage range, seasonal factors Jan..Dec)
UTILITIES: dict[str, tuple[str, list[tuple[float, float]], tuple[int, int], list[float]]] = {
    "electricity": (
        "kWh",
        [(240, 0.4883), (400, 0.5383), (1e9, 0.7883)],
        (120, 420),
        [1.3, 1.2, 0.9, 0.8, 0.9, 1.2, 1.6, 1.7, 1.2, 0.8, 0.9, 1.2],
    ),
    "water": (
        "m³",
        [(15, 5.0), (22, 7.0), (1e9, 9.0)],
        (6, 20),
        [0.9, 0.9, 0.9, 1.0, 1.1, 1.2, 1.3, 1.3, 1.1, 1.0, 0.9, 0.9],
    ),
    "gas": (
        "m³",
        [(30, 2.63), (50, 3.16), (1e9, 3.95)],
        (10, 40),
        [1.8, 1.6, 1.2, 0.9, 0.7, 0.6, 0.5, 0.5, 0.6, 0.8, 1.2, 1.6],
    ),
}
UTILITY_CITIES = [
    "上海",
    "北京",
    "南京",
    "厦门",
    "合肥",
    "天津",
    "宁波",
    "广州",
    "成都",
    "杭州",
    "武汉",
    "深圳",
    "苏州",
    "西安",
    "郑州",
    "重庆",
    "长沙",
    "青岛",
]
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾"
GIVEN = ["秀英", "桂兰", "建华", "丽娟", "玉梅", "春燕", "红霞", "志强", "海燕", "金凤", "淑芬", "国庆"]

# Mobile number segments (first three digits) per carrier.
SEGMENTS: dict[str, list[int]] = {
    "china_mobile": [
        int(x)
        for x in [
            "134",
            "135",
            "136",
            "137",
            "138",
            "139",
            "147",
            "150",
            "151",
            "152",
            "157",
            "158",
            "159",
            "172",
            "178",
            "182",
            "183",
            "184",
            "187",
            "188",
            "195",
            "197",
            "198",
        ]
    ],
    "china_unicom": [
        int(x)
        for x in [
            "130",
            "131",
            "132",
            "145",
            "155",
            "156",
            "166",
            "167",
            "171",
            "175",
            "176",
            "185",
            "186",
            "196",
        ]
    ],
    "china_telecom": [
        int(x)
        for x in ["133", "149", "153", "173", "174", "177", "180", "181", "189", "190", "191", "193", "199"]
    ],
    "china_broadnet": [int(x) for x in ["192"]],
}
CARRIER_NAMES = {
    "china_mobile": "中国移动",
    "china_unicom": "中国联通",
    "china_telecom": "中国电信",
    "china_broadnet": "中国广电",
}

# housekeeping service -> (Chinese name, price factor, minimum hours)
SERVICES: dict[str, tuple[str, float, int]] = {
    "daily_cleaning": ("日常保洁", 1.0, 2),
    "deep_cleaning": ("深度保洁", 1.3, 4),
    "move_in_cleaning": ("开荒保洁", 1.5, 4),
    "window_cleaning": ("擦玻璃", 1.2, 2),
    "appliance_cleaning": ("家电清洗", 1.4, 2),
    "cooking": ("上门做饭", 1.1, 2),
}
HOURLY_RATE = {1: 55.0, 2: 45.0, 3: 38.0}


_HOURS = {
    "bbq": (17 * 60, 26 * 60),
    "hotpot": (11 * 60, 25 * 60),
    "fast_food": (7 * 60, 23 * 60),
    "dessert": (10 * 60, 22 * 60 + 30),
    "noodles": (6 * 60 + 30, 21 * 60),
}


def populate_store(conn: sqlite3.Connection, rng: random.Random) -> None:
    rest: list[tuple[Any, ...]] = []
    dishes: list[tuple[Any, ...]] = []
    workers: list[tuple[Any, ...]] = []
    for ci, city in enumerate(sorted(CITIES)):
        tier = CITIES[city][2]
        drawn_names: set[str] = set()
        names: set[str] = set()
        for _ in range({1: 70, 2: 45, 3: 28}[tier]):
            cuisine = rng.choice(sorted(CUISINES))
            menu = CUISINES[cuisine][2]
            drawn = rng.choice(_DRAW_PREFIX) + rng.choice(_DRAW_SUFFIX[cuisine])
            if drawn in drawn_names:
                continue
            drawn_names.add(drawn)
            name = chain_name(city, cuisine, drawn, names)
            names.add(name)
            rid = f"R{ci + 10:02d}{len(names):03d}"
            x, y = (max(-12.0, min(12.0, rng.gauss(0, 4))) for _ in range(2))
            lo, hi = _HOURS.get(cuisine, (10 * 60, 22 * 60))
            picked = sorted(rng.sample(menu, min(len(menu), rng.randint(6, 9))), key=lambda d: menu.index(d))
            prices = [round(rng.uniform(a, b) * (1.15 if tier == 1 else 1.0)) for _, a, b in picked]
            rest.append(
                (
                    rid,
                    city,
                    name,
                    cuisine,
                    round(x, 2),
                    round(y, 2),
                    f"{city}{rng.choice(ROADS)}{rng.randint(1, 399)}号",
                    round(rng.uniform(3.6, 4.9), 1),
                    round(sum(prices) / len(prices) * 1.6),
                    lo,
                    hi,
                    rng.choice([15, 20, 20, 25, 30]),
                    rng.choice([1.0, 2.0, 2.0, 3.0]),
                    rng.randint(10, 22),
                    rng.randint(8, 40),
                )
            )
            dishes += [
                (rid, d[0], p, int(rng.lognormvariate(5, 1))) for d, p in zip(picked, prices, strict=True)
            ]
        for w in range(10):
            nm = rng.choice(SURNAMES) + rng.choice(["阿姨", "师傅", "大姐"])
            workers.append(
                (f"W{ci + 10:02d}{w:02d}", city, nm, round(rng.uniform(4.6, 5.0), 2), rng.randint(1, 15))
            )
    conn.executemany("INSERT INTO food_restaurants VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rest)
    conn.executemany("INSERT INTO food_dishes VALUES (?,?,?,?)", dishes)
    conn.executemany("INSERT INTO food_hk_workers VALUES (?,?,?,?,?)", workers)
    _populate_recipes(conn)
    accounts = []
    for city in UTILITY_CITIES:
        for kind in sorted(UTILITIES):
            lo, hi = UTILITIES[kind][2]
            for _ in range(40):
                acct = str(rng.randint(10**9, 10**10 - 1))
                holder = rng.choice(SURNAMES) + "*" + rng.choice(GIVEN)[-1]
                addr = f"{city}{rng.choice(ROADS)}{rng.randint(1, 300)}号{rng.randint(1, 30)}栋{rng.randint(101, 2802)}室"
                accounts.append((acct, city, kind, holder, addr, round(rng.uniform(lo, hi), 1)))
    conn.executemany("INSERT OR IGNORE INTO food_utility_accounts VALUES (?,?,?,?,?,?)", accounts)


def _populate_recipes(conn: sqlite3.Connection) -> None:
    rows: list[RecipeRow] = []
    for name, cuisine, diff, minutes, serv, kcal, ingr, steps in CLASSIC_RECIPES:
        rows.append((name, cuisine, diff, minutes, serv, kcal, ingr, steps))
    for mname, amount, cut, kcal in MAINS:
        for method in sorted(METHODS):
            pattern, diff, minutes, cuisine, steps, extra = METHODS[method]
            name = pattern.format(m=mname)
            if any(r[0] == name for r in rows) or (method == "清蒸" and kcal < 150):
                continue
            rows.append(
                (
                    name,
                    cuisine,
                    diff,
                    minutes,
                    2,
                    kcal,
                    [(mname, amount), *extra],
                    [s.format(m=mname, cut=cut) for s in steps],
                )
            )
    conn.executemany(
        "INSERT INTO food_recipes VALUES (?,?,?,?,?,?,?,?,?)",
        [
            (
                f"RC{i + 1001}",
                n,
                c,
                d,
                m,
                s,
                k,
                json.dumps(ig, ensure_ascii=False),
                json.dumps(st, ensure_ascii=False),
            )
            for i, (n, c, d, m, s, k, ig, st) in enumerate(rows)
        ],
    )
