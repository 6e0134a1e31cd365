"""健康 health: static reference data (departments, drugs, interactions, vaccines, name parts).

Drug facts are deliberately conservative, summarised from typical Chinese package inserts; every
answer carries a disclaimer that the insert and the physician or pharmacist decide. Brand names and
manufacturers are invented (generated from syllables) and never those of real products.
"""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import date, timedelta
from typing import Any

from ._common import CITIES

# department id -> Chinese name
# fmt: off
DEPARTMENTS: dict[str, str] = {
    "internal_medicine": "内科", "surgery": "外科", "pediatrics": "儿科", "obstetrics_gynecology": "妇产科",
    "dermatology": "皮肤科", "ophthalmology": "眼科", "stomatology": "口腔科", "orthopedics": "骨科",
    "ent": "耳鼻咽喉科", "cardiology": "心血管内科", "gastroenterology": "消化内科", "respiratory": "呼吸内科",
    "neurology": "神经内科", "endocrinology": "内分泌科", "urology": "泌尿外科", "psychiatry": "精神心理科",
    "tcm": "中医科", "rehabilitation": "康复医学科",
}

# hospital suffix -> (departments it runs; None = all), level
GENERAL_HOSPITALS = ["第一人民医院", "第二人民医院", "中心医院", "中医医院", "第三人民医院", "医学院附属医院"]
SPECIALTY_HOSPITALS: dict[str, list[str]] = {
    "妇幼保健院": ["obstetrics_gynecology", "pediatrics"],
    "儿童医院": ["pediatrics", "surgery", "ent", "dermatology"],
    "口腔医院": ["stomatology"],
    "眼科医院": ["ophthalmology"],
}
LEVELS = ["三级甲等", "三级乙等", "二级甲等"]

TITLES: dict[str, str] = {
    "chief_physician": "主任医师", "associate_chief_physician": "副主任医师",
    "attending_physician": "主治医师", "resident_physician": "住院医师",
}
# title -> (registration fee CNY, patients per half-day session, minutes per patient, sessions per week)
TITLE_RULES: dict[str, tuple[float, int, int, tuple[int, int]]] = {
    "chief_physician": (50.0, 20, 12, (1, 2)),
    "associate_chief_physician": (35.0, 28, 8, (2, 3)),
    "attending_physician": (25.0, 36, 6, (3, 4)),
    "resident_physician": (15.0, 40, 5, (4, 5)),
}
PERIODS: dict[str, tuple[str, str, str]] = {
    "morning": ("上午", "08:00", "12:00"), "afternoon": ("下午", "13:30", "17:00"),
}
# fmt: on
# telephone area codes of the covered cities
# fmt: off
AREA_CODES: dict[str, str] = {
    "北京": "010", "上海": "021", "广州": "020", "深圳": "0755", "天津": "022", "重庆": "023", "成都": "028", "杭州": "0571",
    "南京": "025", "武汉": "027", "西安": "029", "长沙": "0731", "郑州": "0371", "济南": "0531", "青岛": "0532", "沈阳": "024",
    "大连": "0411", "哈尔滨": "0451", "长春": "0431", "石家庄": "0311", "太原": "0351", "呼和浩特": "0471", "合肥": "0551", "福州": "0591",
    "厦门": "0592", "南昌": "0791", "南宁": "0771", "海口": "0898", "三亚": "0898", "贵阳": "0851", "昆明": "0871", "拉萨": "0891",
    "兰州": "0931", "西宁": "0971", "银川": "0951", "乌鲁木齐": "0991", "苏州": "0512", "无锡": "0510", "宁波": "0574", "温州": "0577",
    "东莞": "0769", "佛山": "0757", "珠海": "0756", "桂林": "0773", "丽江": "0888", "洛阳": "0379", "烟台": "0535", "徐州": "0516",
}
# fmt: on
WEEKDAYS_CN = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红建文辉力斌宇浩凯健俊帆鹏晨欣怡婷雪琳晶慧佳颖雯瑶倩璐媛峰坤博毅振志国庆海燕立新春梅"

# fmt: off
ROADS = [
    "人民路", "解放路", "中山路", "建设路", "和平路", "新华路", "文化路", "胜利路", "青年路", "长江路",
    "黄河路", "朝阳路", "光明路", "民主路", "健康路", "育才路", "滨河路", "东风路", "幸福路", "友谊路",
]
STREETS = [
    "东湖", "西苑", "南关", "北辰", "城关", "新城", "金桥", "桃源", "翠屏", "龙山",
    "明珠", "锦绣", "清河", "枫林", "兴华", "安康", "瑞景", "丰泽", "望江", "天宁",
]
PHARMACY_CHAINS = [
    "老百姓大药房", "大参林", "益丰大药房", "一心堂", "海王星辰", "国大药房", "漱玉平民大药房", "健之佳", "同仁堂", "养天和大药房",
]
# fmt: on

BRAND_HEADS = "康安舒宁瑞优畅泰福佳健欣立华博诺百易恒润美信维正和盛"
# fmt: off
BRAND_TAILS: dict[str, str] = {
    "nsaid": "芬痛宁通", "analgesic": "宁舒安清", "antibiotic": "克新林星", "antihistamine": "敏清宁爽", "gi": "胃和舒畅",
    "cardio": "平宁达心", "metabolic": "糖平康宁", "respiratory": "清舒畅宁", "other": "宁康泰安",
}
# fmt: on
# real brand names that a generated name must never equal
# fmt: off
REAL_BRANDS = {
    "万托林", "万艾可", "仙特明", "代文", "优甲乐", "克拉仙", "可威", "安必", "希舒美", "康泰", "开瑞坦", "思密达", "息斯敏", "格华止", "沐舒坦",
    "波立维", "泰诺", "泰诺林", "洛赛克", "白加黑", "百服咛", "立普妥", "络活喜", "美林", "芬必得", "西乐葆", "达喜", "达菲", "钙尔奇", "顺尔宁",
}
# fmt: on
MAKER_WORDS = ["华康", "恒瑞安", "济和", "东方康", "金域", "瑞祥", "长青", "同泰", "惠仁", "百川"]

DISCLAIMER = "以上信息摘自药品说明书要点，仅供参考，不能替代医生或药师的诊疗建议；具体用法用量请遵医嘱或以所购药品说明书为准。"

# One dict per drug (generic). child_dose None + child_note: the drug is not dosed for children here.
# adult_age: age (years) from which the adult dose applies.
# fmt: off
# active ingredients that are not themselves a drug entry
INGREDIENT_NAMES = {"calcium": "钙", "pseudoephedrine": "伪麻黄碱"}
DRUGS: list[dict[str, Any]] = [
    dict(id="ibuprofen", name="布洛芬", en="Ibuprofen", aliases=["异丁苯丙酸"], category="解热镇痛抗炎药（非甾体抗炎药）", cls="nsaid", rx=False, ingredients=["ibuprofen"], groups=["nsaid"],
         indications="缓解轻至中度疼痛如头痛、牙痛、关节痛、肌肉痛、痛经，也用于普通感冒或流行性感冒引起的发热。",
         adult_age=12, adult_dose="成人一次 0.2–0.4 g，若持续疼痛或发热，可间隔 4–6 小时重复用药，24 小时内不超过 4 次（自我药疗每日不超过 1.2 g）。", child_dose="儿童一次按体重 5–10 mg/kg，需要时每 6–8 小时可重复，24 小时内不超过 4 次；请使用儿童剂型（混悬液）。",
         contraindications=["对本品或其他非甾体抗炎药过敏者", "服用阿司匹林或其他非甾体抗炎药后诱发哮喘、荨麻疹或过敏反应者", "活动性消化性溃疡或消化道出血者", "严重肝、肾功能不全或严重心力衰竭者", "冠状动脉搭桥手术（CABG）围手术期", "妊娠晚期妇女"], adverse=["恶心、上腹不适、消化不良", "头痛、头晕", "少见消化道出血、皮疹"],
         cautions=["用于止痛不超过 5 天、退热不超过 3 天，症状不缓解请就医", "不宜与其他非甾体抗炎药同服", "服药期间避免饮酒"], pregnancy="妊娠晚期禁用；妊娠早中期及哺乳期须在医生指导下使用。", forms=[("片剂 0.1 g×24 片", 6), ("缓释胶囊 0.3 g×20 粒", 18), ("混悬液 100 ml:2 g", 22)]),
    dict(id="paracetamol", name="对乙酰氨基酚", en="Paracetamol (Acetaminophen)", aliases=["扑热息痛", "醋氨酚", "acetaminophen"], category="解热镇痛药", cls="analgesic", rx=False, ingredients=["paracetamol"], groups=[],
         indications="用于普通感冒或流行性感冒引起的发热，也用于缓解轻至中度疼痛如头痛、关节痛、偏头痛、牙痛、肌肉痛、神经痛、痛经。",
         adult_age=12, adult_dose="成人一次 0.5 g，若持续发热或疼痛，可间隔 4–6 小时重复用药，24 小时内不超过 4 次（每日不超过 2 g）。", child_dose="儿童一次按体重 10–15 mg/kg，需要时间隔 4–6 小时重复，24 小时内不超过 4 次；请使用儿童剂型。",
         contraindications=["对本品过敏者", "严重肝、肾功能不全者"], adverse=["偶见皮疹、荨麻疹、恶心", "超剂量服用可致严重肝损伤"],
         cautions=["不得同时服用其他含对乙酰氨基酚的药品（如多种复方感冒药）", "服药期间禁止饮酒", "退热不超过 3 天、止痛不超过 5 天，症状不缓解请就医"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 0.5 g×12 片", 5), ("缓释片 0.65 g×18 片", 16), ("口服混悬液 100 ml:3.2 g", 20)]),
    dict(id="aspirin", name="阿司匹林", en="Aspirin", aliases=["乙酰水杨酸", "阿司匹林肠溶片"], category="抗血小板药 / 解热镇痛药", cls="nsaid", rx=True, ingredients=["aspirin"], groups=["nsaid"],
         indications="小剂量肠溶片用于心脑血管疾病的抗血小板治疗（须医生评估后使用）。",
         adult_age=18, adult_dose="抗血小板治疗一般每日一次 75–100 mg，是否使用及剂量须遵医嘱。", child_dose=None, child_note="16 岁以下儿童和青少年不推荐用于退热（有瑞氏综合征风险），须遵医嘱。",
         contraindications=["对阿司匹林或其他水杨酸盐过敏者", "有水杨酸盐或非甾体抗炎药诱发哮喘史者", "活动性消化性溃疡或出血倾向者", "严重肝、肾功能衰竭或严重心力衰竭者", "与每周 15 mg 及以上甲氨蝶呤合用", "妊娠最后三个月"], adverse=["胃肠道不适、恶心", "出血风险增加（如牙龈出血、黑便）", "过敏反应、哮喘发作"],
         cautions=["手术或拔牙前应告知医生正在服用", "不要自行停药或加量"], pregnancy="妊娠最后三个月禁用；其他时期须遵医嘱。", forms=[("肠溶片 100 mg×30 片", 15), ("肠溶片 25 mg×100 片", 12)]),
    dict(id="amoxicillin", name="阿莫西林", en="Amoxicillin", aliases=["羟氨苄青霉素"], category="青霉素类抗生素", cls="antibiotic", rx=True, ingredients=["amoxicillin"], groups=["penicillin"],
         indications="敏感菌所致的呼吸道、泌尿生殖道、皮肤软组织等感染，须由医生诊断后使用。",
         adult_age=12, adult_dose="成人一次 0.5 g，每 6–8 小时一次，一日剂量不超过 4 g（遵医嘱）。", child_dose="儿童一日按体重 20–40 mg/kg，分次每 8 小时一次（遵医嘱）。",
         contraindications=["青霉素过敏及青霉素皮肤试验阳性者"], adverse=["恶心、呕吐、腹泻", "皮疹", "罕见严重过敏反应（过敏性休克）"],
         cautions=["处方药，须凭医生处方使用", "用药前须询问青霉素过敏史", "按疗程用药，不要自行停药"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("胶囊 0.25 g×24 粒", 9), ("颗粒 0.125 g×12 袋", 11)]),
    dict(id="cefalexin", name="头孢氨苄", en="Cefalexin", aliases=["先锋霉素Ⅳ", "头孢力新"], category="第一代头孢菌素类抗生素", cls="antibiotic", rx=True, ingredients=["cefalexin"], groups=["cephalosporin"],
         indications="敏感菌所致的急性扁桃体炎、咽峡炎、中耳炎、支气管炎、泌尿道及皮肤软组织感染，须由医生诊断后使用。",
         adult_age=12, adult_dose="成人一次 0.25–0.5 g，一日 4 次，一日最高剂量 4 g（遵医嘱）。", child_dose="儿童一日按体重 25–50 mg/kg，分 4 次服用（遵医嘱）。",
         contraindications=["对头孢菌素类过敏者", "有青霉素过敏性休克史者"], adverse=["恶心、呕吐、腹泻", "皮疹、药物热"],
         cautions=["处方药，须凭医生处方使用", "用药期间及停药后一周内避免饮酒"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("胶囊 0.125 g×50 粒", 8), ("片剂 0.25 g×24 片", 10)]),
    dict(id="azithromycin", name="阿奇霉素", en="Azithromycin", aliases=[], category="大环内酯类抗生素", cls="antibiotic", rx=True, ingredients=["azithromycin"], groups=["macrolide"],
         indications="敏感菌所致的呼吸道、皮肤软组织感染及沙眼衣原体等所致的感染，须由医生诊断后使用。",
         adult_age=16, adult_dose="成人常用一次 0.5 g，每日一次，连用 3 日；具体疗程遵医嘱。", child_dose="儿童按体重一次 10 mg/kg，每日一次，连用 3 日（遵医嘱）。",
         contraindications=["对阿奇霉素、红霉素或其他大环内酯类药物过敏者", "既往使用阿奇霉素后出现胆汁淤积性黄疸或肝功能不全者"], adverse=["腹泻、恶心、腹痛", "少见肝功能异常、QT 间期延长"],
         cautions=["处方药，须凭医生处方使用", "有心律失常病史者应告知医生"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 0.25 g×6 片", 18), ("干混悬剂 0.1 g×6 袋", 20)]),
    dict(id="clarithromycin", name="克拉霉素", en="Clarithromycin", aliases=["甲红霉素"], category="大环内酯类抗生素", cls="antibiotic", rx=True, ingredients=["clarithromycin"], groups=["macrolide"],
         indications="敏感菌所致的呼吸道、皮肤软组织感染，也用于幽门螺杆菌根除联合方案，须由医生诊断后使用。",
         adult_age=12, adult_dose="成人一次 0.25 g，每 12 小时一次；严重感染一次 0.5 g，每 12 小时一次（遵医嘱）。", child_dose="儿童按体重一次 7.5 mg/kg，每 12 小时一次（遵医嘱）。",
         contraindications=["对大环内酯类药物过敏者", "与特非那定、西沙必利、匹莫齐特、阿司咪唑或麦角胺类合用", "与洛伐他汀、辛伐他汀合用", "有 QT 间期延长或室性心律失常病史者"], adverse=["恶心、腹泻、腹痛", "味觉异常", "少见肝功能异常"],
         cautions=["处方药，须凭医生处方使用", "与他汀类、华法林等合用前须咨询医生"], pregnancy="孕妇须权衡利弊，遵医嘱。", forms=[("片剂 0.25 g×6 片", 16), ("缓释片 0.5 g×3 片", 22)]),
    dict(id="levofloxacin", name="左氧氟沙星", en="Levofloxacin", aliases=["左氧"], category="喹诺酮类抗菌药", cls="antibiotic", rx=True, ingredients=["levofloxacin"], groups=["quinolone"],
         indications="敏感菌所致的呼吸道、泌尿生殖道、皮肤软组织等感染，须由医生诊断后使用。",
         adult_age=18, adult_dose="成人常用一次 0.5 g，每日一次；剂量与疗程依感染类型遵医嘱。", child_dose=None, child_note="18 岁以下儿童及青少年禁用。",
         contraindications=["对喹诺酮类药物过敏者", "18 岁以下儿童及青少年", "孕妇及哺乳期妇女", "癫痫患者"], adverse=["恶心、腹泻", "头晕、失眠", "少见肌腱炎或肌腱断裂、光敏反应"],
         cautions=["处方药，须凭医生处方使用", "与含钙、镁、铝、铁的制剂间隔至少 2 小时服用", "用药期间避免阳光直晒"], pregnancy="孕妇及哺乳期妇女禁用。", forms=[("片剂 0.5 g×4 片", 15), ("胶囊 0.1 g×12 粒", 10)]),
    dict(id="metronidazole", name="甲硝唑", en="Metronidazole", aliases=["灭滴灵"], category="硝基咪唑类抗菌药", cls="antibiotic", rx=True, ingredients=["metronidazole"], groups=[],
         indications="厌氧菌感染、滴虫病、阿米巴病等，须由医生诊断后使用。",
         adult_age=12, adult_dose="成人常用一次 0.2–0.4 g，一日 2–3 次；剂量与疗程依适应症遵医嘱。", child_dose="儿童按体重计算剂量，须遵医嘱。",
         contraindications=["对硝基咪唑类药物过敏者", "有活动性中枢神经系统疾病者", "血液病患者", "妊娠早期（前三个月）及哺乳期妇女"], adverse=["恶心、食欲减退、口中金属味", "头痛、眩晕", "少见周围神经病变"],
         cautions=["处方药，须凭医生处方使用", "用药期间及停药后至少 3 天内禁止饮酒（可致双硫仑样反应）"], pregnancy="妊娠早期禁用，其余时期须遵医嘱。", forms=[("片剂 0.2 g×21 片", 5)]),
    dict(id="oseltamivir", name="奥司他韦", en="Oseltamivir", aliases=["磷酸奥司他韦"], category="抗流感病毒药", cls="respiratory", rx=True, ingredients=["oseltamivir"], groups=[],
         indications="甲型和乙型流感的治疗与预防，须由医生诊断后使用。",
         adult_age=13, adult_dose="成人和 13 岁及以上青少年：治疗一次 75 mg，每日 2 次，共 5 天；预防一次 75 mg，每日一次（遵医嘱）。", child_dose="1 岁及以上儿童按体重：≤15 kg 一次 30 mg，15–23 kg 一次 45 mg，23–40 kg 一次 60 mg，>40 kg 一次 75 mg，治疗时每日 2 次，共 5 天（遵医嘱）。",
         contraindications=["对本品任何成分过敏者"], adverse=["恶心、呕吐", "头痛", "少见神经精神症状（儿童、青少年需注意观察）"],
         cautions=["处方药，须凭医生处方使用", "最好在出现流感症状 48 小时内开始用药"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("胶囊 75 mg×10 粒", 68), ("颗粒 15 mg×10 袋", 45)]),
    dict(id="loratadine", name="氯雷他定", en="Loratadine", aliases=[], category="抗组胺药（第二代）", cls="antihistamine", rx=False, ingredients=["loratadine"], groups=["antihistamine"],
         indications="缓解过敏性鼻炎有关的症状如喷嚏、流涕、鼻痒、眼痒，以及慢性荨麻疹等过敏性皮肤病的症状。",
         adult_age=12, adult_dose="成人及 12 岁以上儿童一次 10 mg，每日一次。", child_dose="2–12 岁儿童：体重 >30 kg 一次 10 mg，每日一次；体重 ≤30 kg 一次 5 mg，每日一次。",
         contraindications=["对本品过敏者"], adverse=["乏力、头痛、嗜睡", "口干"],
         cautions=["严重肝功能不全者须在医生指导下使用", "不宜与其他抗组胺药同服"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 10 mg×6 片", 12), ("糖浆 60 ml:60 mg", 18)]),
    dict(id="cetirizine", name="西替利嗪", en="Cetirizine", aliases=["盐酸西替利嗪"], category="抗组胺药（第二代）", cls="antihistamine", rx=False, ingredients=["cetirizine"], groups=["antihistamine"],
         indications="季节性或常年性过敏性鼻炎、过敏性结膜炎及荨麻疹等过敏引起的瘙痒。",
         adult_age=12, adult_dose="成人及 12 岁以上儿童一次 10 mg，每日一次；或一次 5 mg，每日两次。", child_dose="6–12 岁儿童一次 10 mg 每日一次或一次 5 mg 每日两次；2–6 岁儿童一次 5 mg 每日一次或一次 2.5 mg 每日两次。",
         contraindications=["对本品或羟嗪过敏者", "严重肾功能损害者"], adverse=["嗜睡、头痛", "口干、乏力"],
         cautions=["服药期间不宜驾驶或操作机械", "服药期间避免饮酒", "不宜与其他抗组胺药同服"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 10 mg×12 片", 15), ("滴剂 10 ml:0.1 g", 25)]),
    dict(id="omeprazole", name="奥美拉唑", en="Omeprazole", aliases=[], category="质子泵抑制剂（抑酸药）", cls="gi", rx=True, ingredients=["omeprazole"], groups=["ppi"],
         indications="胃溃疡、十二指肠溃疡、反流性食管炎及幽门螺杆菌根除联合方案等，须遵医嘱使用。",
         adult_age=18, adult_dose="成人一次 20 mg，每日一次，晨起空腹吞服；疗程依病情遵医嘱。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["对本品或其他苯并咪唑类化合物过敏者", "与奈非那韦合用"], adverse=["头痛", "腹泻、恶心、腹痛、便秘"],
         cautions=["长期使用须在医生指导下进行", "与氯吡格雷合用前须咨询医生"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("肠溶胶囊 20 mg×14 粒", 18)]),
    dict(id="hydrotalcite", name="铝碳酸镁", en="Hydrotalcite", aliases=[], category="抗酸药", cls="gi", rx=False, ingredients=["hydrotalcite"], groups=["antacid"],
         indications="缓解胃酸过多引起的胃痛、胃灼热（烧心）、反酸等症状。",
         adult_age=12, adult_dose="成人一次 0.5–1 g（咀嚼后咽下），一日 3 次，餐后 1–2 小时、睡前或胃部不适时服用。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["对本品过敏者"], adverse=["偶见便秘、稀便", "口干、食欲不振"],
         cautions=["严重肾功能不全者须在医生指导下使用", "与其他药物（如喹诺酮类、左甲状腺素）间隔 1–2 小时服用", "连续使用不超过 7 天"], pregnancy="妊娠期头三个月慎用，须遵医嘱。", forms=[("咀嚼片 0.5 g×20 片", 22)]),
    dict(id="smectite", name="蒙脱石散", en="Montmorillonite (Smectite)", aliases=["蒙脱石"], category="止泻药（吸附剂）", cls="gi", rx=False, ingredients=["smectite"], groups=[],
         indications="成人及儿童急、慢性腹泻。",
         adult_age=12, adult_dose="成人一次 1 袋（3 g），一日 3 次，倒入半杯温开水中混匀快速服完。", child_dose="1–2 岁一日 1–2 袋，2 岁以上一日 2–3 袋，均分 3 次服用。",
         contraindications=["对本品过敏者"], adverse=["少数人可能出现轻度便秘"],
         cautions=["与其他口服药物间隔一段时间服用（可能影响其吸收）", "儿童急性腹泻应注意补液，防止脱水"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("散剂 3 g×10 袋", 15)]),
    dict(id="ambroxol", name="氨溴索", en="Ambroxol", aliases=["盐酸氨溴索"], category="祛痰药", cls="respiratory", rx=False, ingredients=["ambroxol"], groups=[],
         indications="痰液黏稠不易咳出者。",
         adult_age=12, adult_dose="成人一次 30–60 mg，一日 3 次，餐后服用。", child_dose="儿童请使用口服溶液等儿童剂型，按说明书或遵医嘱按年龄（体重）用药。",
         contraindications=["对本品过敏者"], adverse=["轻微胃肠道反应如胃部不适、恶心", "偶见皮疹"],
         cautions=["避免与中枢性镇咳药（如右美沙芬）同用，以免稀化的痰液堵塞气道", "用药 7 天症状未缓解请就医"], pregnancy="妊娠头三个月慎用，须遵医嘱。", forms=[("片剂 30 mg×20 片", 9), ("口服溶液 100 ml:0.6 g", 19)]),
    dict(id="dextromethorphan", name="右美沙芬", en="Dextromethorphan", aliases=["氢溴酸右美沙芬"], category="中枢性镇咳药", cls="respiratory", rx=False, ingredients=["dextromethorphan"], groups=[],
         indications="干咳，包括上呼吸道感染（如感冒和咽炎）、支气管炎等引起的咳嗽。",
         adult_age=12, adult_dose="成人一次 15–30 mg，一日 3–4 次，24 小时不超过 120 mg。", child_dose="儿童请使用儿童剂型，按说明书或遵医嘱用药。",
         contraindications=["妊娠三个月内妇女", "有精神病史者", "正在服用单胺氧化酶抑制剂或停药不满两周者", "哺乳期妇女"], adverse=["头晕、嗜睡", "恶心、口干、便秘"],
         cautions=["痰多者不宜使用", "服药期间不宜驾驶或操作机械、不宜饮酒"], pregnancy="妊娠三个月内禁用。", forms=[("片剂 15 mg×24 片", 10), ("糖浆 100 ml:0.15 g", 16)]),
    dict(id="cold_compound", name="氨酚伪麻美芬片", en="Paracetamol, Pseudoephedrine and Dextromethorphan Tablets", aliases=["复方感冒片"], category="复方感冒药", cls="analgesic", rx=False, ingredients=["paracetamol", "pseudoephedrine", "dextromethorphan"], groups=[],
         indications="缓解普通感冒及流行性感冒引起的发热、头痛、鼻塞、流涕、咳嗽等症状。",
         adult_age=12, adult_dose="成人一次 1 片，每 6 小时一次，24 小时内不超过 4 次。", child_dose=None, child_note="12 岁以下儿童请选用儿童专用剂型，遵医嘱。",
         contraindications=["对本品任一成分过敏者", "严重肝、肾功能不全者"], adverse=["轻度头晕、乏力、恶心", "口干、食欲不振"],
         cautions=["不得与其他含对乙酰氨基酚、伪麻黄碱或右美沙芬的药品同服", "高血压、心脏病、甲状腺功能亢进、青光眼、前列腺肥大者须在医生指导下使用", "服药期间禁止饮酒，不宜驾驶或操作机械"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 12 片", 14)]),
    dict(id="metformin", name="二甲双胍", en="Metformin", aliases=["盐酸二甲双胍"], category="双胍类降糖药", cls="metabolic", rx=True, ingredients=["metformin"], groups=[],
         indications="2 型糖尿病（配合饮食控制和运动），须由医生诊断和处方。",
         adult_age=18, adult_dose="成人通常起始一次 0.5 g，每日 1–2 次，随餐服用；医生根据血糖逐渐调整剂量。", child_dose=None, child_note="10 岁以下儿童不推荐使用；10 岁及以上须遵医嘱。",
         contraindications=["严重肾功能不全者", "可造成组织缺氧的疾病（如失代偿性心力衰竭、呼吸衰竭、急性心肌梗死、休克）", "严重感染和外伤、大手术", "糖尿病酮症酸中毒", "酗酒者", "对本品过敏者"], adverse=["腹泻、恶心、呕吐、腹胀", "口中金属味", "罕见乳酸性酸中毒", "长期使用可致维生素 B12 缺乏"],
         cautions=["接受含碘造影剂检查前后须按医嘱暂停使用", "服药期间避免饮酒"], pregnancy="妊娠期一般改用胰岛素，须遵医嘱。", forms=[("片剂 0.5 g×20 片", 8), ("缓释片 0.5 g×30 片", 26)]),
    dict(id="amlodipine", name="氨氯地平", en="Amlodipine", aliases=["苯磺酸氨氯地平"], category="钙通道阻滞剂（降压药）", cls="cardio", rx=True, ingredients=["amlodipine"], groups=[],
         indications="高血压、慢性稳定性心绞痛，须由医生诊断和处方。",
         adult_age=18, adult_dose="成人通常起始一次 5 mg，每日一次，最大剂量每日 10 mg（遵医嘱）。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["对二氢吡啶类药物过敏者", "严重低血压者"], adverse=["踝部水肿", "头痛、面部潮红", "心悸、头晕"],
         cautions=["不要自行停药", "定期监测血压"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 5 mg×28 片", 25)]),
    dict(id="valsartan", name="缬沙坦", en="Valsartan", aliases=[], category="血管紧张素Ⅱ受体拮抗剂（降压药）", cls="cardio", rx=True, ingredients=["valsartan"], groups=[],
         indications="轻、中度原发性高血压，须由医生诊断和处方。",
         adult_age=18, adult_dose="成人通常一次 80 mg，每日一次；血压控制不满意时可遵医嘱增至每日 160 mg。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["对本品过敏者", "孕妇", "严重肝功能损害、胆汁性肝硬化或胆汁淤积者", "糖尿病患者与阿利吉仑合用"], adverse=["头晕", "高钾血症", "少见肾功能变化"],
         cautions=["与保钾利尿剂（如螺内酯）或补钾剂合用须监测血钾", "定期监测血压和肾功能"], pregnancy="妊娠期禁用；计划妊娠者应咨询医生换药。", forms=[("胶囊 80 mg×28 粒", 30)]),
    dict(id="spironolactone", name="螺内酯", en="Spironolactone", aliases=["安体舒通"], category="保钾利尿剂", cls="cardio", rx=True, ingredients=["spironolactone"], groups=[],
         indications="水肿性疾病、高血压辅助治疗、原发性醛固酮增多症等，须由医生诊断和处方。",
         adult_age=18, adult_dose="剂量依适应症差异较大，须遵医嘱。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["高钾血症患者", "肾衰竭患者", "对本品过敏者"], adverse=["高钾血症", "胃肠道反应", "男性乳房发育"],
         cautions=["用药期间定期监测血钾和肾功能", "避免同时大量补钾"], pregnancy="孕妇须在医生指导下使用。", forms=[("片剂 20 mg×100 片", 9)]),
    dict(id="atorvastatin", name="阿托伐他汀", en="Atorvastatin", aliases=["阿托伐他汀钙"], category="他汀类调脂药", cls="cardio", rx=True, ingredients=["atorvastatin"], groups=["statin"],
         indications="高胆固醇血症、冠心病等心血管风险的防治，须由医生诊断和处方。",
         adult_age=18, adult_dose="成人常用起始一次 10–20 mg，每日一次，可在一天中任何时间服用；最大剂量每日 80 mg（遵医嘱）。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["活动性肝病或不明原因的血清转氨酶持续升高者", "孕妇及哺乳期妇女", "对本品过敏者"], adverse=["肌痛、关节痛", "消化不良、腹泻", "转氨酶升高", "罕见横纹肌溶解"],
         cautions=["出现不明原因的肌肉疼痛、无力应及时就医", "定期检查肝功能和血脂"], pregnancy="妊娠期及哺乳期禁用。", forms=[("片剂 20 mg×7 片", 28), ("片剂 10 mg×14 片", 24)]),
    dict(id="warfarin", name="华法林", en="Warfarin", aliases=["华法林钠"], category="口服抗凝药", cls="cardio", rx=True, ingredients=["warfarin"], groups=[],
         indications="静脉血栓栓塞、房颤及心脏瓣膜置换术后等的抗凝治疗，须由医生诊断和处方。",
         adult_age=18, adult_dose="剂量高度个体化，须根据凝血指标 INR 由医生调整，每日同一时间服用。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["有出血倾向或活动性出血者", "近期手术或创伤者", "严重肝、肾功能损害者", "未控制的严重高血压", "妊娠期（特殊情况须由医生评估）"], adverse=["出血（牙龈出血、皮下瘀斑、血尿、黑便等）", "少见皮肤坏死"],
         cautions=["与许多药物和食物存在相互作用，加用或停用任何药物前须咨询医生", "定期监测 INR", "保持富含维生素 K 食物的摄入量相对稳定"], pregnancy="妊娠期一般禁用，须由医生评估。", forms=[("片剂 2.5 mg×60 片", 18), ("片剂 3 mg×100 片", 35)]),
    dict(id="clopidogrel", name="氯吡格雷", en="Clopidogrel", aliases=["硫酸氢氯吡格雷"], category="抗血小板药", cls="cardio", rx=True, ingredients=["clopidogrel"], groups=[],
         indications="动脉粥样硬化血栓形成事件的预防（如心肌梗死、缺血性卒中、冠脉支架术后），须由医生诊断和处方。",
         adult_age=18, adult_dose="成人通常一次 75 mg，每日一次（遵医嘱）。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["对本品过敏者", "严重肝损害者", "活动性病理性出血（如消化性溃疡或颅内出血）"], adverse=["出血", "消化不良、腹泻", "皮疹"],
         cautions=["手术或拔牙前应告知医生", "与奥美拉唑等质子泵抑制剂合用前须咨询医生"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 75 mg×7 片", 22)]),
    dict(id="nitroglycerin", name="硝酸甘油", en="Nitroglycerin", aliases=[], category="硝酸酯类抗心绞痛药", cls="cardio", rx=True, ingredients=["nitroglycerin"], groups=["nitrate"],
         indications="冠心病心绞痛的治疗及预防，须由医生诊断和处方。",
         adult_age=18, adult_dose="心绞痛发作时舌下含服一次 0.5 mg，可每 5 分钟重复一次，15 分钟内不超过 3 片；若仍不缓解应立即就医。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["对硝酸酯类过敏者", "严重低血压或循环衰竭者", "颅内压增高者", "正在使用西地那非等 5 型磷酸二酯酶抑制剂者"], adverse=["头痛、面部潮红", "头晕、体位性低血压"],
         cautions=["含服时应坐下或躺下", "药片须避光密封保存"], pregnancy="孕妇须在医生指导下使用。", forms=[("舌下片 0.5 mg×100 片", 12)]),
    dict(id="sildenafil", name="西地那非", en="Sildenafil", aliases=["枸橼酸西地那非"], category="5 型磷酸二酯酶抑制剂", cls="other", rx=True, ingredients=["sildenafil"], groups=["pde5"],
         indications="勃起功能障碍，须由医生诊断和处方。",
         adult_age=18, adult_dose="成人一般在性活动前约 1 小时服用 50 mg，每日最多一次；医生可根据疗效调整为 25 mg 或 100 mg。", child_dose=None, child_note="不适用于儿童。",
         contraindications=["正在使用任何形式硝酸酯类药物者", "对本品过敏者", "不宜进行性活动的严重心血管疾病患者"], adverse=["头痛、面部潮红", "消化不良、鼻塞", "视觉异常"],
         cautions=["处方药，须凭医生处方使用"], pregnancy="不适用于女性。", forms=[("片剂 50 mg×5 片", 98)]),
    dict(id="levothyroxine", name="左甲状腺素钠", en="Levothyroxine Sodium", aliases=["左甲状腺素"], category="甲状腺激素", cls="metabolic", rx=True, ingredients=["levothyroxine"], groups=[],
         indications="甲状腺功能减退症的替代治疗及甲状腺手术后等，须由医生诊断和处方。",
         adult_age=18, adult_dose="剂量个体化，须根据甲状腺功能检查由医生调整；早餐前半小时空腹服用。", child_dose=None, child_note="儿童剂量须由医生确定。",
         contraindications=["未经治疗的肾上腺皮质功能不全、垂体功能不全", "未经治疗的甲状腺功能亢进", "急性心肌梗死、急性心肌炎"], adverse=["剂量过大时出现心悸、失眠、多汗、体重减轻等甲亢样症状"],
         cautions=["与钙剂、铁剂、抗酸药间隔至少 4 小时服用", "不要自行调整剂量"], pregnancy="妊娠期通常需要继续服用并由医生调整剂量。", forms=[("片剂 50 μg×100 片", 28)]),
    dict(id="calcium_carbonate", name="碳酸钙", en="Calcium Carbonate", aliases=["钙片", "碳酸钙D3"], category="矿物质补充剂", cls="other", rx=False, ingredients=["calcium"], groups=[],
         indications="用于预防和治疗钙缺乏，如骨质疏松的辅助治疗、妊娠和哺乳期妇女及老年人补钙。",
         adult_age=12, adult_dose="成人按钙元素计一次 0.5–0.6 g，每日 1 次，随餐服用（以说明书为准）。", child_dose="儿童请选用儿童剂型，按说明书或遵医嘱服用。",
         contraindications=["高钙血症、高钙尿症者", "含钙肾结石或有肾结石病史者", "对本品过敏者"], adverse=["嗳气、便秘", "过量可致高钙血症"],
         cautions=["与左甲状腺素、喹诺酮类、四环素类等药物间隔服用", "心肾功能不全者须在医生指导下使用"], pregnancy="孕妇及哺乳期妇女可按推荐剂量服用。", forms=[("片剂 0.6 g×60 片", 38), ("咀嚼片 0.3 g×60 片", 32)]),
    dict(id="prednisone", name="泼尼松", en="Prednisone", aliases=["强的松", "醋酸泼尼松"], category="糖皮质激素", cls="other", rx=True, ingredients=["prednisone"], groups=[],
         indications="过敏性与自身免疫性炎症性疾病等，须由医生诊断和处方。",
         adult_age=18, adult_dose="剂量依疾病和病情差异很大，须严格遵医嘱；长期使用不可突然停药。", child_dose=None, child_note="儿童剂量须由医生确定。",
         contraindications=["对肾上腺皮质激素类药物过敏者", "高血压、血栓症、胃与十二指肠溃疡、精神病、电解质代谢异常、心肌梗死、青光眼等患者一般不宜使用"], adverse=["长期使用可致库欣综合征、血糖升高、骨质疏松", "诱发或加重感染、消化性溃疡", "失眠、情绪改变"],
         cautions=["长期用药不可突然停药，须遵医嘱逐渐减量", "与非甾体抗炎药合用增加消化道溃疡风险"], pregnancy="孕妇须权衡利弊，遵医嘱。", forms=[("片剂 5 mg×100 片", 8)]),
    dict(id="montelukast", name="孟鲁司特", en="Montelukast", aliases=["孟鲁司特钠"], category="白三烯受体拮抗剂", cls="respiratory", rx=True, ingredients=["montelukast"], groups=[],
         indications="哮喘的预防和长期治疗，以及过敏性鼻炎症状的缓解，须由医生诊断和处方。",
         adult_age=15, adult_dose="15 岁及以上一次 10 mg，每日一次，睡前服用。", child_dose="6–14 岁一次 5 mg（咀嚼片），2–5 岁一次 4 mg（咀嚼片或颗粒），每日一次，睡前服用（遵医嘱）。",
         contraindications=["对本品任何成分过敏者"], adverse=["头痛、腹痛", "少见神经精神事件（如睡眠障碍、情绪变化），出现时应及时就医"],
         cautions=["不用于哮喘急性发作的缓解", "处方药，须凭医生处方使用"], pregnancy="孕妇及哺乳期妇女须在医生指导下使用。", forms=[("片剂 10 mg×5 片", 32), ("咀嚼片 4 mg×5 片", 26)]),
    dict(id="salbutamol", name="沙丁胺醇", en="Salbutamol (Albuterol)", aliases=["舒喘灵", "沙丁胺醇气雾剂"], category="短效 β2 受体激动剂（平喘药）", cls="respiratory", rx=True, ingredients=["salbutamol"], groups=[],
         indications="缓解支气管哮喘或喘息型支气管炎等引起的支气管痉挛，须由医生诊断和处方。",
         adult_age=12, adult_dose="气雾剂：需要时一次吸入 100–200 μg（1–2 揿），24 小时内不超过 8 揿（遵医嘱）。", child_dose="儿童需要时一次吸入 100 μg（1 揿），必要时可增至 200 μg，须遵医嘱。",
         contraindications=["对本品过敏者"], adverse=["手指震颤、心悸", "头痛", "少见低钾血症"],
         cautions=["若用量增加或效果减退，提示病情加重，应及时就医", "高血压、心脏病、甲亢患者须在医生指导下使用"], pregnancy="孕妇须在医生指导下使用。", forms=[("气雾剂 100 μg×200 揿", 28)]),
    dict(id="celecoxib", name="塞来昔布", en="Celecoxib", aliases=[], category="非甾体抗炎药（COX-2 选择性抑制剂）", cls="nsaid", rx=True, ingredients=["celecoxib"], groups=["nsaid"],
         indications="骨关节炎、类风湿关节炎的症状缓解及急性疼痛，须由医生诊断和处方。",
         adult_age=18, adult_dose="骨关节炎常用一次 200 mg 每日一次，或一次 100 mg 每日两次（遵医嘱）。", child_dose=None, child_note="儿童用药须遵医嘱。",
         contraindications=["对磺胺过敏者", "服用阿司匹林或其他非甾体抗炎药后诱发哮喘、荨麻疹或过敏反应者", "冠状动脉搭桥手术（CABG）围手术期", "活动性消化性溃疡或消化道出血者", "重度心力衰竭患者"], adverse=["消化不良、腹痛", "水肿、血压升高", "少见心血管血栓事件"],
         cautions=["使用最低有效剂量、最短疗程", "不宜与其他非甾体抗炎药同服"], pregnancy="妊娠晚期禁用，其他时期须遵医嘱。", forms=[("胶囊 0.2 g×6 粒", 36)]),
]

# (drug a, drug b, severity, effect, advice). Only well-documented interactions.
INTERACTIONS: list[tuple[str, str, str, str, str]] = [
    ("sildenafil", "nitroglycerin", "contraindicated", "两者合用可致严重低血压，甚至危及生命。", "禁止合用。"),
    ("clarithromycin", "atorvastatin", "major", "克拉霉素抑制 CYP3A4，升高阿托伐他汀血药浓度，增加肌病和横纹肌溶解风险。", "避免合用；确需合用时由医生限制他汀剂量并监测肌痛症状。"),
    ("warfarin", "aspirin", "major", "抗凝与抗血小板作用叠加，出血风险显著增加。", "仅在医生明确要求时合用，并密切监测出血和 INR。"),
    ("warfarin", "ibuprofen", "major", "非甾体抗炎药增加华法林相关的出血（尤其消化道出血）风险。", "避免自行合用；止痛退热可咨询医生或药师改用其他药物。"),
    ("warfarin", "celecoxib", "major", "可增强抗凝作用并增加出血风险。", "避免自行合用，须由医生评估并监测 INR。"),
    ("warfarin", "metronidazole", "major", "甲硝唑抑制华法林代谢，使 INR 明显升高，出血风险增加。", "避免合用；确需合用时由医生调整华法林剂量并加密监测 INR。"),
    ("warfarin", "clopidogrel", "major", "抗凝与抗血小板作用叠加，出血风险增加。", "仅在医生评估后合用，并密切监测出血。"),
    ("warfarin", "clarithromycin", "moderate", "可升高 INR，增加出血风险。", "合用期间加强 INR 监测。"),
    ("warfarin", "azithromycin", "moderate", "个别报告可使 INR 升高。", "合用期间注意监测 INR 和出血迹象。"),
    ("warfarin", "levofloxacin", "moderate", "可增强华法林的抗凝作用。", "合用期间加强 INR 监测。"),
    ("warfarin", "paracetamol", "moderate", "规律、大剂量服用对乙酰氨基酚可使 INR 升高。", "偶尔小剂量使用一般可行；需连续服用时请告知医生并监测 INR。"),
    ("warfarin", "cold_compound", "moderate", "复方中的对乙酰氨基酚规律大量服用可使 INR 升高。", "需连续服用时请告知医生并监测 INR。"),
    ("clopidogrel", "omeprazole", "moderate", "奥美拉唑抑制 CYP2C19，降低氯吡格雷活性代谢物水平，可能减弱其抗血小板作用。", "避免合用；需要抑酸时请医生选择其他方案。"),
    ("clopidogrel", "aspirin", "moderate", "双联抗血小板时出血风险增加。", "仅按医生处方合用，注意出血迹象。"),
    ("clopidogrel", "ibuprofen", "moderate", "增加消化道出血风险。", "避免自行合用。"),
    ("aspirin", "ibuprofen", "moderate", "布洛芬可干扰小剂量阿司匹林的抗血小板作用，并增加消化道不良反应。", "需偶尔服用布洛芬时，应在服用阿司匹林肠溶片至少 30 分钟后或 8 小时前服用，长期合用请咨询医生。"),
    ("valsartan", "spironolactone", "major", "两者均升高血钾，合用可致高钾血症。", "须由医生评估后合用，并定期监测血钾和肾功能。"),
    ("valsartan", "ibuprofen", "moderate", "非甾体抗炎药可减弱降压效果，并在脱水或老年患者中增加肾功能损害风险。", "短期使用注意监测血压，长期合用须咨询医生。"),
    ("valsartan", "celecoxib", "moderate", "可减弱降压效果并增加肾功能损害风险。", "合用时监测血压和肾功能。"),
    ("levofloxacin", "calcium_carbonate", "moderate", "钙离子与喹诺酮类螯合，显著降低左氧氟沙星吸收。", "左氧氟沙星应在服用钙剂前 2 小时或服用后 2 小时以上服用。"),
    ("levofloxacin", "hydrotalcite", "moderate", "含铝、镁的抗酸药降低左氧氟沙星吸收。", "至少间隔 2 小时服用。"),
    ("levothyroxine", "calcium_carbonate", "moderate", "钙剂降低左甲状腺素的吸收。", "至少间隔 4 小时服用。"),
    ("levothyroxine", "hydrotalcite", "moderate", "抗酸药降低左甲状腺素的吸收。", "至少间隔 4 小时服用。"),
    ("prednisone", "ibuprofen", "moderate", "糖皮质激素与非甾体抗炎药合用增加消化道溃疡和出血风险。", "尽量避免合用，必要时遵医嘱并注意胃肠道症状。"),
    ("prednisone", "aspirin", "moderate", "增加消化道溃疡和出血风险。", "合用须遵医嘱。"),
    ("clarithromycin", "amlodipine", "moderate", "克拉霉素可升高氨氯地平血药浓度，可能引起低血压和水肿。", "合用时注意监测血压。"),
    ("azithromycin", "levofloxacin", "moderate", "两者均可延长 QT 间期，合用增加心律失常风险。", "避免合用，或由医生评估后心电监测。"),
    ("smectite", "levothyroxine", "minor", "蒙脱石可能吸附同服药物，降低其吸收。", "间隔 1–2 小时以上服用。"),
    ("ambroxol", "dextromethorphan", "minor", "祛痰药与中枢性镇咳药同用，可能使稀化的痰液不易排出。", "痰多时避免同时使用镇咳药，请咨询药师。"),
]
# fmt: on

# vaccine id -> (name, doses in the full course, eligible population, price CNY per dose)
VACCINES: dict[str, tuple[str, int, str, float]] = {
    "hpv_2valent": (
        "双价人乳头瘤病毒疫苗（HPV2）",
        3,
        "9–45 岁女性（具体以疫苗说明书和接种点告知为准）",
        329.0,
    ),
    "hpv_4valent": (
        "四价人乳头瘤病毒疫苗（HPV4）",
        3,
        "9–45 岁女性（具体以疫苗说明书和接种点告知为准）",
        798.0,
    ),
    "hpv_9valent": (
        "九价人乳头瘤病毒疫苗（HPV9）",
        3,
        "9–45 岁女性（具体以疫苗说明书和接种点告知为准）",
        1318.0,
    ),
    "influenza": ("流感疫苗（四价）", 1, "6 月龄及以上人群，每年接种一次", 128.0),
    "rabies": ("人用狂犬病疫苗", 5, "暴露后预防或高风险人群暴露前预防，按 5 针或 4 针程序接种", 65.0),
    "hepatitis_b": ("乙型肝炎疫苗（成人）", 3, "乙肝表面抗体阴性的成人，按 0、1、6 月程序接种", 55.0),
    "herpes_zoster": ("重组带状疱疹疫苗", 2, "50 岁及以上成人", 1598.0),
    "pneumococcal_23": ("23 价肺炎球菌多糖疫苗", 1, "2 岁及以上高危人群及 60 岁以上老年人", 218.0),
    "varicella": ("水痘减毒活疫苗", 2, "1 岁及以上未患过水痘的人群", 158.0),
    "ev71": ("肠道病毒 71 型灭活疫苗（手足口病）", 2, "6 月龄至 5 岁儿童", 205.0),
}
# fmt: off
VACCINE_SESSIONS: dict[str, tuple[str, str, str]] = {
    "morning": ("上午", "08:30", "11:30"), "afternoon": ("下午", "14:00", "16:30"),
}
# fmt: on


#: the logged-in user's family in the step tracker: each member's name in the family group (备注名) and
#: the other words people call them by (我妈, 老妈 and 母亲 are all 妈妈)
FAMILY: dict[str, tuple[str, ...]] = {
    "妈妈": ("妈", "老妈", "母亲"), "爸爸": ("爸", "老爸", "父亲"),
    "老婆": ("媳妇", "媳妇儿", "妻子", "爱人", "太太"), "儿子": (), "女儿": ("闺女",),
    "外婆": ("姥姥", "外祖母"),
}  # fmt: skip


def family_name(value: str) -> str:
    """The family group's name for the member ``value`` calls by another word (我妈, 我的妈妈, 老妈 →
    妈妈); ``value`` itself otherwise."""
    v = value.strip()
    for said in (v, v.removeprefix("我的"), v.removeprefix("我")):
        for name, words in FAMILY.items():
            if said == name or said in words:
                return name
    return value


# --- populate (health.populate) ------------------------------------------------------------------------------------
def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    _populate_hospitals(conn, rng)
    _populate_drugs(conn, rng)
    cities = sorted(CITIES)
    users = []
    for i in range(300):
        h = round(rng.gauss(168, 8), 1)
        users.append((f"U{100001 + i}", person(rng), h, round(max(42.0, rng.gauss(22.5, 3.2) * (h / 100) ** 2), 1),
                      rng.choice((6000, 8000, 8000, 10000, 10000, 12000)), rng.randint(3500, 13000),
                      round(rng.uniform(0.7, 1.3), 2), (date(2019, 6, 1) + timedelta(days=rng.randrange(1200))).isoformat()))  # fmt: skip
    users[0] = (*users[0][:7], "2019-01-01")  # the logged-in demo user has the full history
    # the family who share their steps with the logged-in user, by the names people give them in a family
    # group (备注名): 我妈上周走了多少步, never a stranger's full name (付磊上周走了多少步, rated 2.0 of 5)
    users = [users[0], *((u[0], kin, *u[2:]) for u, kin in zip(users[1:], FAMILY, strict=False))]
    conn.executemany("INSERT INTO health_fit_users VALUES (?,?,?,?,?,?,?,?)", users)
    centres, offers, pharmacies = [], [], []
    vaccines = sorted(VACCINES)
    for ci, city in enumerate(cities):
        tier = CITIES[city][2]
        for k, street in enumerate(rng.sample(STREETS, {1: 14, 2: 10, 3: 7}[tier])):
            cid = f"VC{ci:02d}{k:02d}"
            centres.append(
                (
                    cid,
                    city,
                    f"{city}市{street}街道社区卫生服务中心",
                    address(rng, city),
                    phone(rng, city),
                )
            )
            for v in rng.sample(vaccines, rng.randint(5, 9)):
                days = "".join(
                    str(d)
                    for d in range(7)
                    if (d < 5 and rng.random() < 0.8) or (d == 5 and rng.random() < 0.4)
                )
                quota = (
                    rng.randint(4, 12) if v.startswith("hpv") or v == "herpes_zoster" else rng.randint(15, 60)
                )
                price = VACCINES[v][3] * rng.choice((1.0, 1.0, 0.95, 1.05))
                offers.append((cid, v, days or "1", round(price, 1), quota))
        branches: dict[tuple[str, str], int] = {}
        for k in range({1: 60, 2: 35, 3: 20}[tier]):
            is24 = rng.random() < 0.12 or k < 2  # every city has a few 24-hour pharmacies
            op, cl = (
                (0, 1440)
                if is24
                else (rng.choice((420, 450, 480, 510)), rng.choice((1260, 1290, 1320, 1350)))
            )
            road, chain = rng.choice(ROADS), rng.choice(PHARMACY_CHAINS)
            branches[chain, road] = nth = branches.get((chain, road), 0) + 1
            name = f"{chain}（{road}{'' if nth == 1 else '一二三四五六七八九十'[nth - 1]}店）"
            addr = f"{city}市{road}{rng.randint(1, 399)}号"
            pharmacies.append((f"PH{ci:02d}{k:03d}", city, name, addr, phone(rng, city), op, cl,
                               int(is24), int(rng.random() < 0.7), round(rng.uniform(3.8, 5.0), 1)))  # fmt: skip
    conn.executemany("INSERT INTO health_vaccine_centres VALUES (?,?,?,?,?)", centres)
    conn.executemany("INSERT INTO health_vaccine_offers VALUES (?,?,?,?,?)", offers)
    conn.executemany("INSERT INTO health_pharmacies VALUES (?,?,?,?,?,?,?,?,?,?)", pharmacies)


def _populate_hospitals(conn: sqlite3.Connection, rng: random.Random) -> None:
    hospitals, doctors, sessions = [], [], []
    slots = [(wd, p) for wd in range(7) for p in sorted(PERIODS)]
    n_doc = 0
    for ci, city in enumerate(sorted(CITIES)):
        tier = CITIES[city][2]
        names: list[tuple[str, list[str] | None]] = [
            (s, None) for s in GENERAL_HOSPITALS[: {1: 6, 2: 4, 3: 3}[tier]]
        ]
        names += [(s, d) for s, d in SPECIALTY_HOSPITALS.items()][: {1: 4, 2: 3, 3: 2}[tier]]
        for hi, (suffix, depts) in enumerate(names):
            hid = f"H{ci:02d}{hi:02d}"
            level = LEVELS[0] if hi < 2 or tier == 1 else rng.choice(LEVELS)
            hospitals.append((hid, city, f"{city}市{suffix}", level, address(rng, city), phone(rng, city)))
            for dept in depts or sorted(DEPARTMENTS):
                if suffix == "中医医院" and dept in ("obstetrics_gynecology", "urology", "ophthalmology"):
                    continue
                for _ in range(rng.randint(2, 4) if depts is None else rng.randint(5, 8)):
                    n_doc += 1
                    did = f"D{n_doc:06d}"
                    title = rng.choices(list(TITLE_RULES), weights=(2, 3, 4, 2))[0]
                    doctors.append((did, hid, dept, person(rng), title))
                    lo, hi_n = TITLE_RULES[title][3]
                    weekday_slots = [s for s in slots if s[0] < 5]
                    chosen = rng.sample(weekday_slots, rng.randint(lo, hi_n))
                    if rng.random() < 0.25:
                        chosen.append(rng.choice([s for s in slots if s[0] >= 5]))
                    sessions += [(did, wd, p) for wd, p in chosen]
    conn.executemany("INSERT INTO health_hospitals VALUES (?,?,?,?,?,?)", hospitals)
    conn.executemany("INSERT INTO health_doctors VALUES (?,?,?,?,?)", doctors)
    conn.executemany("INSERT INTO health_doctor_sessions VALUES (?,?,?)", sessions)


# --- generators used by populate ---------------------------------------------------------
def person(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2, 2))))


def phone(rng: random.Random, city: str) -> str:
    code = AREA_CODES.get(city, "0000")
    return f"{code}-{rng.randint(2000_0000, 8999_9999)}"


def address(rng: random.Random, city: str) -> str:
    return f"{city}市{rng.choice(ROADS)}{rng.randint(1, 399)}号"


def _populate_drugs(conn: sqlite3.Connection, rng: random.Random) -> None:
    cities = sorted(CITIES)
    names: dict[str, str] = {}
    used: set[str] = set(REAL_BRANDS)
    products, n = [], 0
    for d in DRUGS:
        conn.execute(
            "INSERT INTO health_drugs VALUES (?,?,?,?)",
            (d["id"], d["name"], d["en"], json.dumps(d, ensure_ascii=False)),
        )
        for key in [d["name"], d["en"], d["en"].split(" (")[0], d["id"], *d["aliases"]]:
            names.setdefault(name_key(key), d["id"])
        for spec, base in d["forms"]:
            for _ in range(rng.randint(3, 6)):
                brand = ""
                while not brand or brand in used:
                    head = "".join(rng.sample(BRAND_HEADS, 2))
                    brand = head + rng.choice([t for t in BRAND_TAILS[d["cls"]] if t not in head])
                used.add(brand)
                n += 1
                maker = f"{rng.choice(cities)}{rng.choice(MAKER_WORDS)}制药有限公司"
                products.append(
                    (f"P{n:05d}", d["id"], brand, maker, spec, round(base * rng.uniform(0.7, 1.6), 1))
                )
                names.setdefault(name_key(brand), d["id"])
    conn.executemany("INSERT INTO health_drug_products VALUES (?,?,?,?,?,?)", products)
    conn.executemany("INSERT INTO health_drug_names VALUES (?,?)", sorted(names.items()))
    conn.executemany("INSERT INTO health_drug_interactions VALUES (?,?,?,?,?)", INTERACTIONS)


def name_key(s: str) -> str:
    return "".join(s.split()).casefold()
