"""Scenic spots of the covered cities: real places, with their category, A-level and an adult ticket
price in CNY (the names, categories and levels are facts; prices are approximate, 0 = free entry).
``travel._populate_scenic`` reads them."""

from __future__ import annotations

# a city holds at least this many spots; a city with fewer real ones listed gets invented ones
MIN_SPOTS = 5

# city: "name|category|level|price ..." (category: nature history museum theme_park zoo_aquarium landmark)
_TEXT = {
    "北京": "故宫博物院|history|5A|60 八达岭长城|history|5A|40 颐和园|history|5A|30 天坛公园|history|5A|15 "
    "北京动物园|zoo_aquarium|4A|15 圆明园|history|4A|25 慕田峪长城|history|5A|40 北京欢乐谷|theme_park|4A|299 "
    "北京环球度假区|theme_park|none|528 中国国家博物馆|museum|none|0 恭王府|history|5A|40 香山公园|nature|4A|10 "
    "北京海洋馆|zoo_aquarium|4A|175 奥林匹克公园|landmark|5A|0",
    "上海": "上海迪士尼乐园|theme_park|none|475 东方明珠|landmark|5A|199 上海博物馆|museum|none|0 "
    "上海野生动物园|zoo_aquarium|5A|165 豫园|history|4A|40 上海科技馆|museum|5A|45 朱家角古镇|history|4A|0 "
    "上海欢乐谷|theme_park|4A|230 上海海昌海洋公园|zoo_aquarium|4A|299 上海中心大厦观光厅|landmark|none|180 "
    "上海植物园|nature|4A|15 辰山植物园|nature|4A|60",
    "广州": "广州塔|landmark|4A|150 长隆野生动物世界|zoo_aquarium|5A|350 长隆欢乐世界|theme_park|5A|250 "
    "白云山|nature|5A|5 陈家祠|history|4A|10 越秀公园|nature|4A|0 广东省博物馆|museum|none|0 沙面|history|none|0 "
    "广州动物园|zoo_aquarium|4A|20 华南植物园|nature|4A|20",
    "深圳": "世界之窗|theme_park|5A|220 深圳欢乐谷|theme_park|5A|230 东部华侨城|theme_park|5A|200 "
    "锦绣中华民俗村|theme_park|5A|200 大梅沙海滨公园|nature|none|0 梧桐山|nature|4A|0 深圳野生动物园|zoo_aquarium|4A|240 "
    "仙湖植物园|nature|4A|15 深圳博物馆|museum|none|0 莲花山公园|nature|none|0",
    "天津": "天津之眼|landmark|4A|70 五大道|history|4A|0 古文化街|history|5A|0 天津欢乐谷|theme_park|4A|200 "
    "天津海昌极地海洋公园|zoo_aquarium|4A|160 天津博物馆|museum|none|0 瓷房子|history|none|50 意式风情区|history|4A|0",
    "重庆": "洪崖洞|landmark|4A|0 长江索道|landmark|4A|30 磁器口古镇|history|4A|0 解放碑|landmark|none|0 "
    "重庆动物园|zoo_aquarium|4A|25 重庆欢乐谷|theme_park|4A|220 大足石刻|history|5A|115 武隆天生三桥|nature|5A|125 "
    "三峡博物馆|museum|4A|0",
    "成都": "成都大熊猫繁育研究基地|zoo_aquarium|4A|55 武侯祠|history|4A|50 都江堰|history|5A|80 "
    "杜甫草堂|history|4A|50 宽窄巷子|history|4A|0 青城山|nature|5A|80 成都欢乐谷|theme_park|4A|230 "
    "金沙遗址博物馆|museum|4A|70 成都极地海洋公园|zoo_aquarium|4A|180 锦里|history|4A|0",
    "杭州": "灵隐飞来峰|history|5A|45 西溪湿地|nature|5A|80 宋城|theme_park|4A|310 西湖|nature|5A|0 "
    "雷峰塔|history|5A|40 千岛湖|nature|5A|130 杭州动物园|zoo_aquarium|4A|20 浙江省博物馆|museum|none|0 "
    "杭州乐园|theme_park|4A|200 六和塔|history|4A|20",
    "南京": "中山陵|history|5A|0 南京博物院|museum|4A|0 夫子庙|history|5A|0 明孝陵|history|5A|70 "
    "总统府|history|4A|35 玄武湖|nature|4A|0 侵华日军南京大屠杀遇难同胞纪念馆|museum|none|0 红山森林动物园|zoo_aquarium|4A|40 "
    "牛首山|nature|4A|98 南京海底世界|zoo_aquarium|4A|150",
    "武汉": "黄鹤楼|history|5A|70 东湖|nature|5A|0 湖北省博物馆|museum|4A|0 武汉欢乐谷|theme_park|4A|230 "
    "户部巷|history|none|0 武汉动物园|zoo_aquarium|4A|20 归元禅寺|history|4A|20 木兰天池|nature|5A|60 "
    "武汉海昌极地海洋公园|zoo_aquarium|4A|200",
    "西安": "秦始皇帝陵博物院|museum|5A|120 大雁塔|history|5A|40 西安城墙|history|5A|54 "
    "华清宫|history|5A|120 陕西历史博物馆|museum|4A|0 大唐芙蓉园|theme_park|5A|120 钟楼|history|4A|30 "
    "西安碑林博物馆|museum|4A|50 秦岭野生动物园|zoo_aquarium|4A|110 大唐不夜城|landmark|none|0",
    "长沙": "岳麓山|nature|5A|0 橘子洲|nature|5A|0 湖南博物院|museum|4A|0 长沙世界之窗|theme_park|4A|200 "
    "长沙生态动物园|zoo_aquarium|4A|150 太平老街|history|none|0 铜官窑古镇|history|4A|0",
    "郑州": "少林寺|history|5A|80 河南博物院|museum|4A|0 郑州方特欢乐世界|theme_park|4A|280 "
    "黄河风景名胜区|nature|4A|60 郑州动物园|zoo_aquarium|4A|15 二七纪念塔|landmark|none|0 只有河南·戏剧幻城|theme_park|none|220",
    "济南": "趵突泉|nature|5A|40 大明湖|nature|5A|0 千佛山|nature|4A|30 山东博物馆|museum|4A|0 "
    "济南动物园|zoo_aquarium|4A|20 芙蓉街|history|none|0 五龙潭|nature|4A|5",
    "青岛": "栈桥|landmark|none|0 崂山|nature|5A|90 八大关|history|4A|0 青岛海底世界|zoo_aquarium|4A|150 "
    "青岛啤酒博物馆|museum|4A|60 青岛极地海洋公园|zoo_aquarium|4A|200 小鱼山|nature|none|10 信号山|nature|none|15 "
    "五四广场|landmark|none|0",
    "沈阳": "沈阳故宫|history|5A|50 张氏帅府|history|4A|48 北陵公园|history|4A|6 沈阳方特欢乐世界|theme_park|4A|220 "
    "沈阳森林动物园|zoo_aquarium|4A|120 中街|history|none|0 辽宁省博物馆|museum|4A|0",
    "大连": "星海广场|landmark|none|0 老虎滩海洋公园|zoo_aquarium|5A|220 大连森林动物园|zoo_aquarium|4A|120 "
    "圣亚海洋世界|zoo_aquarium|4A|160 金石滩|nature|5A|0 棒棰岛|nature|4A|20 旅顺口|history|none|0 "
    "发现王国|theme_park|4A|220",
    "哈尔滨": "中央大街|history|none|0 圣索菲亚大教堂|history|4A|20 冰雪大世界|theme_park|4A|328 太阳岛|nature|5A|0 "
    "哈尔滨极地公园|zoo_aquarium|4A|180 东北虎林园|zoo_aquarium|4A|100 伏尔加庄园|history|4A|80",
    "长春": "伪满皇宫博物院|museum|5A|70 净月潭|nature|5A|30 长春电影制片厂旧址博物馆|museum|4A|80 "
    "长影世纪城|theme_park|5A|240 长春动植物公园|zoo_aquarium|4A|25 南湖公园|nature|none|0",
    "石家庄": "赵州桥|history|4A|40 正定古城|history|none|0 隆兴寺|history|4A|50 河北博物院|museum|none|0 "
    "石家庄动物园|zoo_aquarium|4A|50 抱犊寨|nature|4A|50 西柏坡|history|5A|0",
    "太原": "晋祠|history|5A|70 山西博物院|museum|4A|0 双塔寺|history|4A|30 蒙山大佛|history|4A|60 "
    "太原动物园|zoo_aquarium|4A|50 天龙山|nature|4A|60",
    "呼和浩特": "大召寺|history|4A|35 内蒙古博物院|museum|4A|0 昭君博物院|museum|4A|65 "
    "哈素海|nature|4A|40 大青山野生动物园|zoo_aquarium|4A|60 席力图召|history|4A|30",
    "合肥": "三河古镇|history|5A|0 包公园|history|4A|50 安徽博物院|museum|4A|0 合肥野生动物园|zoo_aquarium|4A|80 "
    "合肥融创乐园|theme_park|4A|260 大蜀山|nature|4A|0 渡江战役纪念馆|museum|4A|0",
    "福州": "三坊七巷|history|5A|0 鼓山|nature|4A|0 福州国家森林公园|nature|4A|0 福建博物院|museum|4A|0 "
    "福州动物园|zoo_aquarium|4A|60 西湖公园|nature|4A|0 林则徐纪念馆|museum|none|0",
    "厦门": "鼓浪屿|nature|5A|35 南普陀寺|history|4A|0 厦门大学|landmark|none|0 厦门园林植物园|nature|4A|30 "
    "曾厝垵|history|none|0 厦门方特梦幻王国|theme_park|4A|260 环岛路|nature|none|0 厦门科技馆|museum|4A|80",
    "南昌": "滕王阁|history|5A|45 八一起义纪念馆|museum|4A|0 南昌之星摩天轮|landmark|none|50 "
    "江西省博物馆|museum|none|0 梅岭|nature|4A|0 南昌动物园|zoo_aquarium|4A|20 南昌万达乐园|theme_park|4A|200",
    "南宁": "青秀山|nature|5A|20 广西民族博物馆|museum|4A|0 南宁动物园|zoo_aquarium|4A|50 "
    "方特东盟神画|theme_park|4A|240 中山路美食街|history|none|0 扬美古镇|history|4A|0",
    "海口": "骑楼老街|history|4A|0 假日海滩|nature|4A|0 火山口公园|nature|4A|60 海南省博物馆|museum|4A|0 "
    "热带野生动植物园|zoo_aquarium|4A|150 五公祠|history|4A|20 观澜湖电影公社|theme_park|4A|130",
    "三亚": "蜈支洲岛|nature|5A|144 天涯海角|nature|4A|81 南山文化旅游区|history|5A|129 亚龙湾|nature|none|0 "
    "大小洞天|nature|5A|95 鹿回头|nature|4A|45 亚特兰蒂斯水世界|theme_park|none|398 三亚千古情|theme_park|4A|300",
    "贵阳": "甲秀楼|history|4A|0 青岩古镇|history|5A|10 黔灵山公园|nature|4A|5 贵州省博物馆|museum|none|0 "
    "花溪公园|nature|4A|0 天河潭|nature|4A|50 贵阳森林野生动物园|zoo_aquarium|4A|80",
    "昆明": "石林|nature|5A|130 滇池|nature|none|0 翠湖公园|nature|none|0 云南民族村|theme_park|4A|90 "
    "西山龙门|nature|4A|30 云南野生动物园|zoo_aquarium|4A|100 金殿|history|4A|20 官渡古镇|history|4A|0",
    "拉萨": "布达拉宫|history|5A|200 大昭寺|history|5A|85 八廓街|history|none|0 罗布林卡|history|4A|60 "
    "色拉寺|history|4A|50 西藏博物馆|museum|4A|0 纳木错|nature|4A|120",
    "兰州": "中山桥|landmark|none|0 白塔山公园|nature|4A|0 甘肃省博物馆|museum|4A|0 五泉山|nature|4A|0 "
    "黄河母亲雕塑|landmark|none|0 兰州水车博览园|history|4A|0",
    "西宁": "塔尔寺|history|5A|70 青海湖|nature|5A|90 东关清真大寺|history|4A|25 青海省博物馆|museum|none|0 "
    "西宁野生动物园|zoo_aquarium|4A|60 日月山|nature|4A|40",
    "银川": "西夏陵|history|5A|75 镇北堡西部影城|theme_park|5A|80 沙湖|nature|5A|60 宁夏博物馆|museum|4A|0 "
    "贺兰山岩画|history|4A|60 海宝塔|history|none|10",
    "乌鲁木齐": "天山天池|nature|5A|95 新疆维吾尔自治区博物馆|museum|4A|0 国际大巴扎|landmark|4A|0 "
    "红山公园|nature|4A|0 南山牧场|nature|4A|40 新疆野生动物园|zoo_aquarium|4A|60",
    "苏州": "拙政园|history|5A|80 虎丘|history|5A|70 留园|history|5A|55 周庄|history|5A|100 同里古镇|history|5A|100 "
    "苏州博物馆|museum|none|0 平江路|history|none|0 苏州乐园|theme_park|4A|200 金鸡湖|nature|5A|0 寒山寺|history|4A|20",
    "无锡": "鼋头渚|nature|5A|90 灵山胜境|history|5A|210 惠山古镇|history|5A|0 无锡融创乐园|theme_park|4A|260 "
    "蠡园|nature|4A|45 无锡动物园|zoo_aquarium|4A|100 三国城|theme_park|5A|90 拈花湾|history|4A|0",
    "宁波": "天一阁|history|5A|30 老外滩|history|none|0 东钱湖|nature|5A|0 溪口|nature|5A|150 宁波博物馆|museum|none|0 "
    "宁波方特东方神画|theme_park|4A|260 宁波海洋世界|zoo_aquarium|4A|150",
    "温州": "雁荡山|nature|5A|160 江心屿|nature|5A|0 楠溪江|nature|5A|0 五马街|history|none|0 温州博物馆|museum|none|0 "
    "南麂列岛|nature|4A|0",
    "东莞": "松山湖|nature|4A|0 可园|history|4A|8 鸦片战争博物馆|museum|4A|0 东莞植物园|nature|4A|0 "
    "隐贤山庄|nature|4A|100 观音山|nature|4A|60",
    "佛山": "祖庙|history|5A|20 清晖园|history|4A|15 南风古灶|history|4A|25 西樵山|nature|5A|40 "
    "长鹿旅游休博园|theme_park|5A|200 岭南天地|history|none|0",
    "珠海": "长隆海洋王国|zoo_aquarium|5A|450 情侣路|landmark|none|0 日月贝|landmark|none|0 "
    "圆明新园|history|4A|0 外伶仃岛|nature|4A|0 珠海渔女|landmark|none|0 东澳岛|nature|4A|0",
    "桂林": "漓江|nature|5A|210 象鼻山|nature|5A|55 两江四湖|nature|5A|150 芦笛岩|nature|4A|90 "
    "七星公园|nature|4A|0 独秀峰·王城|history|5A|100 阳朔西街|history|none|0 银子岩|nature|4A|65",
    "丽江": "玉龙雪山|nature|5A|100 丽江古城|history|5A|50 束河古镇|history|4A|0 拉市海|nature|4A|30 "
    "黑龙潭|nature|4A|0 泸沽湖|nature|5A|70 蓝月谷|nature|5A|0",
    "洛阳": "龙门石窟|history|5A|90 白马寺|history|4A|35 老君山|nature|5A|100 洛阳博物馆|museum|4A|0 "
    "隋唐洛阳城国家遗址公园|history|4A|0 王城公园|nature|4A|0 龙潭大峡谷|nature|5A|75",
    "烟台": "蓬莱阁|history|5A|100 烟台山|history|4A|50 养马岛|nature|4A|0 张裕酒文化博物馆|museum|4A|50 "
    "长岛|nature|4A|0 烟台海昌鲸鲨馆|zoo_aquarium|4A|150",
    "徐州": "云龙湖|nature|5A|0 彭祖园|nature|4A|0 龟山汉墓|history|4A|60 徐州博物馆|museum|4A|0 "
    "户部山|history|none|0 徐州汉文化景区|history|5A|0 徐州动物园|zoo_aquarium|4A|50",
}
SPOTS: dict[str, list[tuple[str, str, str, float]]] = {
    city: [(n, c, lvl, float(p)) for n, c, lvl, p in (x.split("|") for x in text.split())]
    for city, text in _TEXT.items()
}
