"""The 14 served languages: identity, vocabulary in each language's own script, vectorised composers.

Each `Language` holds word lists written so that any combination reads as plausible text without
grammatical agreement (present tense, no gendered participles, place phrases with their preposition
already inflected). `titles`, `overviews`, `taglines`, `collection_names` and `collection_overviews`
pick word indices with numpy and glue them with pyarrow compute, like marquee_datasets.synthetic does
for English: no per-row Python. Appending words is safe; reordering changes every catalogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets.columns import cat, pick


@dataclass(frozen=True)
class Language:
    tag: str  # "de-DE": what `language=` selects and the variant file suffix
    english_name: str
    native_name: str
    nouns: tuple[str, ...]  # title nouns in mid-title form ("la nuit"); first letter is raised
    places: tuple[str, ...]  # "à Paris" after the noun, or "東京の" before it (place_first)
    conj: str  # joins two nouns: " et ", "と"
    adjectives: tuple[str, ...]  # prefixes ("静かな", "Kayıp "); empty where adjectives must agree
    names: tuple[str, ...]  # characters named in overviews (prose, not credits)
    goals: tuple[str, ...]
    threats: tuple[str, ...]
    overview: str  # template over {name} {goal} {threat}
    taglines: tuple[str, ...]
    genres: tuple[str, ...]  # TMDB's genre names, in marquee_datasets.vocab.GENRES order
    collection_name: str  # template over {base}
    collection_overview: str  # template over {base}
    place_first: bool = False
    capitalise: bool = True  # raise the first letter (not for Turkish: i/İ, words already capitalised)

    @property
    def iso_639_1(self) -> str:
        return self.tag.split("-")[0]

    @property
    def iso_3166_1(self) -> str:
        return self.tag.split("-")[1]


_L = Language
# fmt: off
LANGUAGES: tuple[Language, ...] = (
    _L("en-US", "English", "English",
       ("the night", "silence", "the river", "the city", "the kingdom", "the shadow", "the garden", "the storm",
        "winter", "summer", "the heart", "the promise", "the island", "the mirror"),
       (" in Paris", " by the Sea", " in the Desert", " in Brooklyn", " of the North", " in the Mountains"),
       " and ", ("Silent ", "Lost ", "Last ", "Secret ", "Golden ", "Distant ", "Little ", "Broken "),
       ("Anna Moore", "John Walker", "Clara Bennett", "Daniel Hayes", "Grace Fischer", "Oscar Reyes"),
       ("sets out to find a missing sister", "returns home after twenty years",
        "uncovers a conspiracy that reaches the highest office", "has one night to save the family business",
        "plans the heist of a lifetime", "fights to clear a stained name"),
       ("before the storm arrives.", "while a killer closes in.", "as the war reaches the village.",
        "before time runs out.", "as old secrets surface."),
       "{name} {goal} {threat}",
       ("Some secrets never stay buried.", "Every legend has a beginning.", "Trust no one.",
        "One night. One chance.", "Nothing will ever be the same.", "The end is only the beginning."),
       ("Action", "Adventure", "Animation", "Comedy", "Crime", "Documentary", "Drama", "Family", "Fantasy",
        "History", "Horror", "Music", "Mystery", "Romance", "Science Fiction", "TV Movie", "Thriller", "War",
        "Western"),
       "{base} Collection", "The complete {base} saga, gathered in one collection."),
    _L("es-ES", "Spanish", "Español",
       ("la noche", "el silencio", "el río", "la ciudad", "el reino", "la sombra", "el jardín", "la tormenta",
        "el invierno", "el verano", "el corazón", "la promesa", "la isla", "el espejo"),
       (" en París", " junto al mar", " en el desierto", " en Madrid", " del norte", " en la montaña"), " y ", (),
       ("Lucía Martín", "Javier Ruiz", "Carmen López", "Diego Navarro", "Elena Castro", "Pablo Serrano"),
       ("sale en busca de su hermana desaparecida", "vuelve a casa después de veinte años",
        "descubre una conspiración que llega hasta lo más alto", "tiene una sola noche para salvar el negocio familiar",
        "planea el golpe del siglo", "lucha por limpiar su nombre"),
       ("antes de que llegue la tormenta.", "mientras un asesino le sigue los pasos.",
        "cuando la guerra llega al pueblo.", "antes de que se acabe el tiempo.", "mientras salen a la luz viejos secretos."),
       "{name} {goal} {threat}",
       ("Algunos secretos nunca quedan enterrados.", "Toda leyenda tiene un comienzo.", "No confíes en nadie.",
        "Una noche. Una oportunidad.", "Nada volverá a ser igual.", "El final es solo el principio."),
       ("Acción", "Aventura", "Animación", "Comedia", "Crimen", "Documental", "Drama", "Familia", "Fantasía",
        "Historia", "Terror", "Música", "Misterio", "Romance", "Ciencia ficción", "Película de TV", "Suspense",
        "Bélica", "Western"),
       "{base} - Colección", "La saga completa de {base}, reunida en una colección."),
    _L("fr-FR", "French", "Français",
       ("la nuit", "le silence", "la rivière", "la ville", "le royaume", "l'ombre", "le jardin", "la tempête",
        "l'hiver", "l'été", "le cœur", "la promesse", "l'île", "le miroir"),
       (" à Paris", " au bord de la mer", " dans le désert", " à Marseille", " du Nord", " en montagne"), " et ", (),
       ("Camille Lefèvre", "Julien Moreau", "Léa Girard", "Mathieu Roux", "Chloé Fontaine", "Hugo Mercier"),
       ("part à la recherche de sa sœur disparue", "revient au village après vingt ans",
        "découvre une conspiration qui remonte jusqu'au sommet de l'État",
        "n'a qu'une nuit pour sauver l'entreprise familiale", "prépare le casse du siècle", "se bat pour laver son nom"),
       ("avant l'arrivée de la tempête.", "alors qu'un tueur se rapproche.", "tandis que la guerre atteint le village.",
        "avant qu'il ne soit trop tard.", "alors que de vieux secrets refont surface."),
       "{name} {goal} {threat}",
       ("Certains secrets ne restent jamais enfouis.", "Chaque légende a un commencement.",
        "Ne faites confiance à personne.", "Une nuit. Une chance.", "Plus rien ne sera jamais comme avant.",
        "La fin n'est que le début."),
       ("Action", "Aventure", "Animation", "Comédie", "Crime", "Documentaire", "Drame", "Familial", "Fantastique",
        "Histoire", "Horreur", "Musique", "Mystère", "Romance", "Science-Fiction", "Téléfilm", "Thriller", "Guerre",
        "Western"),
       "{base} - Saga", "L'intégrale de la saga « {base} », réunie en une collection."),
    _L("de-DE", "German", "Deutsch",
       ("die Nacht", "das Schweigen", "der Fluss", "die Stadt", "das Königreich", "der Schatten", "der Garten",
        "der Sturm", "der Winter", "der Sommer", "das Herz", "das Versprechen", "die Insel", "der Spiegel"),
       (" in Berlin", " am Meer", " in der Wüste", " in Hamburg", " im Norden", " in den Bergen"), " und ", (),
       ("Lena Schneider", "Jonas Becker", "Mia Hoffmann", "Felix Wagner", "Sophie Krüger", "Lukas Schäfer"),
       ("sucht nach der verschwundenen Schwester", "kehrt nach zwanzig Jahren in die Heimat zurück",
        "deckt eine Verschwörung bis in die höchsten Kreise auf",
        "hat nur eine Nacht, um das Familienunternehmen zu retten", "plant den Coup des Jahrhunderts",
        "kämpft darum, den eigenen Namen reinzuwaschen"),
       ("bevor der Sturm aufzieht.", "während ein Mörder immer näher kommt.", "als der Krieg das Dorf erreicht.",
        "bevor die Zeit abläuft.", "während alte Geheimnisse ans Licht kommen."),
       "{name} {goal}, {threat}",
       ("Manche Geheimnisse bleiben nie begraben.", "Jede Legende hat einen Anfang.", "Trau niemandem.",
        "Eine Nacht. Eine Chance.", "Nichts wird mehr sein wie zuvor.", "Das Ende ist erst der Anfang."),
       ("Action", "Abenteuer", "Animation", "Komödie", "Krimi", "Dokumentarfilm", "Drama", "Familie", "Fantasy",
        "Historie", "Horror", "Musik", "Mystery", "Liebesfilm", "Science Fiction", "TV-Film", "Thriller",
        "Kriegsfilm", "Western"),
       "{base} Filmreihe", "Die komplette Reihe „{base}“ in einer Sammlung."),
    _L("it-IT", "Italian", "Italiano",
       ("la notte", "il silenzio", "il fiume", "la città", "il regno", "l'ombra", "il giardino", "la tempesta",
        "l'inverno", "l'estate", "il cuore", "la promessa", "l'isola", "lo specchio"),
       (" a Roma", " sul mare", " nel deserto", " a Venezia", " del Nord", " in montagna"), " e ", (),
       ("Giulia Romano", "Marco Bianchi", "Chiara Esposito", "Luca Ferrari", "Sara Colombo", "Matteo Ricci"),
       ("parte alla ricerca della sorella scomparsa", "torna a casa dopo vent'anni",
        "scopre una cospirazione che arriva ai piani più alti", "ha una sola notte per salvare l'azienda di famiglia",
        "pianifica il colpo del secolo", "lotta per riabilitare il proprio nome"),
       ("prima che arrivi la tempesta.", "mentre un assassino si avvicina.", "mentre la guerra raggiunge il villaggio.",
        "prima che sia troppo tardi.", "mentre vecchi segreti tornano a galla."),
       "{name} {goal} {threat}",
       ("Alcuni segreti non restano mai sepolti.", "Ogni leggenda ha un inizio.", "Non fidarti di nessuno.",
        "Una notte. Una possibilità.", "Niente sarà più come prima.", "La fine è solo l'inizio."),
       ("Azione", "Avventura", "Animazione", "Commedia", "Crime", "Documentario", "Dramma", "Famiglia", "Fantasy",
        "Storia", "Horror", "Musica", "Mistero", "Romance", "Fantascienza", "televisione film", "Thriller", "Guerra",
        "Western"),
       "{base} - Collezione", "La saga completa di «{base}», riunita in una collezione."),
    _L("pt-BR", "Portuguese", "Português",
       ("a noite", "o silêncio", "o rio", "a cidade", "o reino", "a sombra", "o jardim", "a tempestade",
        "o inverno", "o verão", "o coração", "a promessa", "a ilha", "o espelho"),
       (" em Lisboa", " à beira-mar", " no deserto", " no Rio", " do Norte", " na montanha"), " e ", (),
       ("Ana Souza", "Pedro Almeida", "Beatriz Lima", "Rafael Costa", "Juliana Rocha", "Thiago Ribeiro"),
       ("parte em busca da irmã desaparecida", "volta para casa depois de vinte anos",
        "descobre uma conspiração que chega ao alto escalão", "tem uma única noite para salvar o negócio da família",
        "planeja o golpe do século", "luta para limpar o próprio nome"),
       ("antes que a tempestade chegue.", "enquanto um assassino se aproxima.", "quando a guerra chega à aldeia.",
        "antes que o tempo acabe.", "enquanto velhos segredos vêm à tona."),
       "{name} {goal} {threat}",
       ("Alguns segredos nunca ficam enterrados.", "Toda lenda tem um começo.", "Não confie em ninguém.",
        "Uma noite. Uma chance.", "Nada será como antes.", "O fim é apenas o começo."),
       ("Ação", "Aventura", "Animação", "Comédia", "Crime", "Documentário", "Drama", "Família", "Fantasia",
        "História", "Terror", "Música", "Mistério", "Romance", "Ficção científica", "Cinema TV", "Thriller", "Guerra",
        "Faroeste"),
       "{base} - Coleção", "A saga completa de {base}, reunida em uma coleção."),
    _L("ru-RU", "Russian", "Русский",
       ("ночь", "тишина", "река", "город", "королевство", "тень", "сад", "буря", "зима", "лето", "сердце",
        "обещание", "остров", "зеркало"),
       (" в Париже", " у моря", " в пустыне", " в Москве", " на севере", " в горах"), " и ", (),
       ("Анна Петрова", "Иван Соколов", "Мария Волкова", "Дмитрий Орлов", "Елена Морозова", "Алексей Лебедев"),
       ("отправляется на поиски пропавшей сестры", "возвращается домой спустя двадцать лет",
        "раскрывает заговор, который ведёт на самый верх", "за одну ночь пытается спасти семейное дело",
        "готовит ограбление века", "пытается вернуть себе доброе имя"),
       ("пока не разразилась буря.", "пока убийца идёт по следу.", "когда война приходит в деревню.",
        "пока ещё не поздно.", "когда всплывают старые тайны."),
       "{name} {goal}, {threat}",
       ("Некоторые тайны невозможно похоронить.", "У каждой легенды есть начало.", "Не доверяй никому.",
        "Одна ночь. Один шанс.", "Ничто уже не будет прежним.", "Конец — это только начало."),
       ("боевик", "приключения", "мультфильм", "комедия", "криминал", "документальный", "драма", "семейный",
        "фэнтези", "история", "ужасы", "музыка", "детектив", "мелодрама", "фантастика", "телевизионный фильм",
        "триллер", "военный", "вестерн"),
       "{base} (Коллекция)", "Полная сага «{base}» в одной коллекции."),
    _L("ja-JP", "Japanese", "日本語",
       ("夜", "沈黙", "川", "街", "王国", "影", "庭", "嵐", "冬", "夏", "心", "約束", "島", "鏡"),
       ("東京の", "海辺の", "砂漠の", "京都の", "北の", "山の"), "と",
       ("静かな", "失われた", "最後の", "秘密の", "黄金の", "遠い", "小さな", "壊れた"),
       ("佐藤健", "田中美咲", "鈴木一郎", "高橋さくら", "山本大輔", "中村愛"),
       ("行方不明の妹を探す旅に出る。", "二十年ぶりに故郷へ帰る。", "国の頂点に及ぶ陰謀を暴く。",
        "一夜のうちに家業を救わなければならない。", "一世一代の強盗を計画する。", "自らの汚名をそそぐために戦う。"),
       ("嵐が来る前に、", "殺人者が迫る中、", "戦争が村に迫る中、", "時間切れになる前に、", "古い秘密が明らかになる中、"),
       "{name}は、{threat}{goal}",
       ("秘密は決して眠らない。", "すべての伝説には始まりがある。", "誰も信じるな。", "一夜限りのチャンス。",
        "もう何も元には戻らない。", "終わりは始まりにすぎない。"),
       ("アクション", "アドベンチャー", "アニメーション", "コメディ", "犯罪", "ドキュメンタリー", "ドラマ", "ファミリー",
        "ファンタジー", "歴史", "ホラー", "音楽", "ミステリー", "ロマンス", "サイエンスフィクション", "テレビ映画",
        "スリラー", "戦争", "西部劇"),
       "{base}シリーズ", "「{base}」シリーズの全作品をひとつにまとめたコレクション。", place_first=True),
    _L("ko-KR", "Korean", "한국어/조선말",
       ("밤", "침묵", "강", "도시", "왕국", "그림자", "정원", "폭풍", "겨울", "여름", "심장", "약속", "섬", "거울"),
       ("서울의 ", "바닷가의 ", "사막의 ", "부산의 ", "북쪽의 ", "산속의 "), " 그리고 ",
       ("조용한 ", "잃어버린 ", "마지막 ", "비밀의 ", "황금빛 ", "머나먼 ", "작은 ", "부서진 "),
       # Every name ends in a final consonant, so the topic particle is always 은.
       ("김민준", "이지훈", "박서윤", "최은정", "정하늘", "한수민"),
       ("실종된 동생을 찾아 나선다.", "이십 년 만에 고향으로 돌아온다.", "권력의 정점에 닿은 음모를 파헤친다.",
        "단 하룻밤 만에 가업을 구해야 한다.", "일생일대의 강도를 계획한다.", "누명을 벗기 위해 싸운다."),
       ("폭풍이 오기 전에", "살인마가 다가오는 가운데", "전쟁이 마을에 닥치자", "시간이 다하기 전에",
        "오래된 비밀이 드러나면서"),
       "{name}은 {threat} {goal}",
       ("어떤 비밀은 결코 묻히지 않는다.", "모든 전설에는 시작이 있다.", "아무도 믿지 마라.",
        "단 하룻밤, 단 한 번의 기회.", "이제 아무것도 예전 같지 않다.", "끝은 또 다른 시작일 뿐."),
       ("액션", "모험", "애니메이션", "코미디", "범죄", "다큐멘터리", "드라마", "가족", "판타지", "역사", "공포", "음악",
        "미스터리", "로맨스", "SF", "TV 영화", "스릴러", "전쟁", "서부"),
       "{base} 시리즈", "'{base}' 시리즈 전편을 한데 모은 컬렉션.", place_first=True),
    _L("zh-CN", "Mandarin", "普通话",
       ("夜", "沉默", "河流", "城市", "王国", "阴影", "花园", "风暴", "冬天", "夏天", "心", "承诺", "岛屿", "镜子"),
       ("上海的", "海边的", "沙漠中的", "北京的", "北方的", "山中的"), "与",
       ("寂静的", "失落的", "最后的", "秘密的", "金色的", "遥远的", "小小的", "破碎的"),
       ("李明", "王芳", "张伟", "刘洋", "陈静", "赵磊"),
       ("踏上寻找失踪妹妹的旅程。", "在离家二十年后重返故乡。", "揭开一场直达权力顶层的阴谋。",
        "必须在一夜之间拯救家族生意。", "策划一场世纪大劫案。", "为洗清自己的罪名而战。"),
       ("在暴风雨来临之前，", "在杀手步步逼近之际，", "在战火蔓延到村庄时，", "在时间耗尽之前，", "随着旧日秘密浮出水面，"),
       "{name}{threat}{goal}",
       ("有些秘密永远不会被埋葬。", "每个传奇都有开始。", "不要相信任何人。", "一个夜晚，一次机会。",
        "一切都将不再相同。", "结束只是开始。"),
       ("动作", "冒险", "动画", "喜剧", "犯罪", "纪录", "剧情", "家庭", "奇幻", "历史", "恐怖", "音乐", "悬疑", "爱情",
        "科幻", "电视电影", "惊悚", "战争", "西部"),
       "{base}（系列）", "《{base}》系列全集，汇集于此。", place_first=True),
    _L("hi-IN", "Hindi", "हिन्दी",
       ("रात", "ख़ामोशी", "नदी", "शहर", "सल्तनत", "साया", "बाग़", "तूफ़ान", "सर्दी", "गर्मी", "दिल", "वादा", "टापू",
        "आईना"),
       (" मुंबई में", " समंदर किनारे", " रेगिस्तान में", " दिल्ली में", " पहाड़ों में", " गाँव में"), " और ", (),
       ("राहुल शर्मा", "प्रिया पटेल", "अर्जुन सिंह", "अनन्या गुप्ता", "विक्रम मेहता", "नेहा वर्मा"),
       # "X को ... है": the infinitive construction does not agree with the character's gender.
       ("अपनी लापता बहन को ढूँढना है।", "बीस साल बाद घर लौटना है।", "सत्ता के शिखर तक फैली साज़िश का पर्दाफ़ाश करना है।",
        "एक ही रात में परिवार का कारोबार बचाना है।", "सदी की सबसे बड़ी चोरी की योजना बनानी है।",
        "अपना नाम बेदाग़ साबित करना है।"),
       ("तूफ़ान आने से पहले", "एक हत्यारे के क़रीब आते-आते", "गाँव तक जंग पहुँचने से पहले", "समय ख़त्म होने से पहले",
        "पुराने राज़ खुलने से पहले"),
       "{name} को {threat} {goal}",
       ("कुछ राज़ कभी दफ़न नहीं रहते।", "हर दास्तान की एक शुरुआत होती है।", "किसी पर भरोसा मत करो।", "एक रात। एक मौक़ा।",
        "अब कुछ भी पहले जैसा नहीं रहेगा।", "अंत तो बस शुरुआत है।"),
       ("एक्शन", "साहसिक", "एनिमेशन", "कॉमेडी", "अपराध", "वृत्तचित्र", "ड्रामा", "पारिवारिक", "फ़ैंटेसी", "इतिहास",
        "हॉरर", "संगीत", "रहस्य", "रोमांस", "विज्ञान कथा", "टीवी फ़िल्म", "थ्रिलर", "युद्ध", "वेस्टर्न"),
       "{base} संग्रह", "{base} की पूरी गाथा, एक ही संग्रह में।", capitalise=False),
    _L("ar-SA", "Arabic", "العربية",
       ("الليل", "الصمت", "النهر", "المدينة", "المملكة", "الظل", "الحديقة", "العاصفة", "الشتاء", "الصيف", "القلب",
        "الوعد", "الجزيرة", "المرآة"),
       (" في باريس", " على شاطئ البحر", " في الصحراء", " في القاهرة", " في الشمال", " في الجبال"), " و", (),
       ("أحمد منصور", "ليلى حداد", "عمر خليل", "سارة يوسف", "كريم ناصر", "نور عبد الله"),
       # "تبدأ رحلة X ل...": the verb agrees with رحلة, never with the character.
       ("للبحث عن شقيقة مفقودة.", "للعودة إلى الوطن بعد عشرين عامًا.", "لكشف مؤامرة تصل إلى أعلى المستويات.",
        "لإنقاذ أعمال العائلة في ليلة واحدة.", "للتخطيط لسرقة القرن.", "لتبرئة اسم العائلة."),
       ("قبل وصول العاصفة", "بينما يقترب قاتل", "مع وصول الحرب إلى القرية", "قبل فوات الأوان", "مع انكشاف أسرار قديمة"),
       "{threat}، تبدأ رحلة {name} {goal}",
       ("بعض الأسرار لا تبقى مدفونة أبدًا.", "لكل أسطورة بداية.", "لا تثق بأحد.", "ليلة واحدة. فرصة واحدة.",
        "لن يعود شيء كما كان.", "النهاية ليست إلا البداية."),
       ("حركة", "مغامرة", "رسوم متحركة", "كوميديا", "جريمة", "وثائقي", "دراما", "عائلي", "فانتازيا", "تاريخ", "رعب",
        "موسيقى", "غموض", "رومانسية", "خيال علمي", "فيلم تلفزيوني", "إثارة", "حرب", "غربي"),
       "سلسلة {base}", "سلسلة {base} كاملة في مجموعة واحدة.", capitalise=False),
    _L("tr-TR", "Turkish", "Türkçe",
       ("Gece", "Sessizlik", "Nehir", "Şehir", "Krallık", "Gölge", "Bahçe", "Fırtına", "Kış", "Yaz", "Kalp", "Söz",
        "Ada", "Ayna"),
       ("Paris'te ", "Deniz Kıyısında ", "Çölde ", "İstanbul'da ", "Kuzeyde ", "Dağlarda "), " ve ",
       ("Karanlık ", "Sessiz ", "Son ", "Kayıp ", "Kırık ", "Altın ", "Gizli ", "Vahşi "),
       ("Elif Yılmaz", "Mehmet Demir", "Zeynep Kaya", "Emre Şahin", "Ayşe Çelik", "Burak Öztürk"),
       ("kayıp kız kardeşini aramaya koyulur.", "yirmi yıl sonra evine döner.",
        "en tepeye uzanan bir komployu ortaya çıkarır.", "aile şirketini kurtarmak için tek bir gecesi vardır.",
        "yüzyılın soygununu planlar.", "adını temize çıkarmak için savaşır."),
       ("fırtına gelmeden önce", "bir katil peşindeyken", "savaş köye ulaşırken", "zaman dolmadan",
        "eski sırlar gün yüzüne çıkarken"),
       "{name}, {threat} {goal}",
       ("Bazı sırlar asla gömülü kalmaz.", "Her efsanenin bir başlangıcı vardır.", "Kimseye güvenme.",
        "Bir gece. Tek bir şans.", "Hiçbir şey eskisi gibi olmayacak.", "Son, sadece bir başlangıç."),
       ("Aksiyon", "Macera", "Animasyon", "Komedi", "Suç", "Belgesel", "Dram", "Aile", "Fantastik", "Tarih", "Korku",
        "Müzik", "Gizem", "Romantik", "Bilim-Kurgu", "TV film", "Gerilim", "Savaş", "Vahşi Batı"),
       "{base} Serisi", "{base} serisinin tüm filmleri tek bir koleksiyonda.", place_first=True, capitalise=False),
    _L("pl-PL", "Polish", "Polski",
       ("noc", "cisza", "rzeka", "miasto", "królestwo", "cień", "ogród", "burza", "zima", "lato", "serce",
        "obietnica", "wyspa", "lustro"),
       (" w Paryżu", " nad morzem", " na pustyni", " w Warszawie", " na północy", " w górach"), " i ", (),
       ("Anna Nowak", "Piotr Wiśniewski", "Katarzyna Wójcik", "Tomasz Kamiński", "Magdalena Zając", "Paweł Mazur"),
       ("wyrusza na poszukiwanie zaginionej siostry", "wraca do domu po dwudziestu latach",
        "odkrywa spisek sięgający najwyższych szczebli władzy", "ma tylko jedną noc, by uratować rodzinną firmę",
        "planuje skok stulecia", "walczy o oczyszczenie swojego imienia"),
       ("zanim nadejdzie burza.", "gdy zabójca jest coraz bliżej.", "gdy wojna dociera do wioski.",
        "zanim skończy się czas.", "gdy wychodzą na jaw dawne tajemnice."),
       "{name} {goal}, {threat}",
       ("Niektóre sekrety nigdy nie zostają pogrzebane.", "Każda legenda ma swój początek.", "Nie ufaj nikomu.",
        "Jedna noc. Jedna szansa.", "Nic już nie będzie takie samo.", "Koniec to dopiero początek."),
       ("Akcja", "Przygodowy", "Animacja", "Komedia", "Kryminał", "Dokumentalny", "Dramat", "Familijny", "Fantasy",
        "Historyczny", "Horror", "Muzyczny", "Tajemnica", "Romans", "Sci-Fi", "film TV", "Thriller", "Wojenny",
        "Western"),
       "{base} - Kolekcja", "Cała saga „{base}” w jednej kolekcji."),
)
# fmt: on
BY_TAG: dict[str, Language] = {lang.tag: lang for lang in LANGUAGES}
BY_CODE: dict[str, Language] = {lang.iso_639_1: lang for lang in LANGUAGES}


def _draw(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, 1 << 30, n)


def _raise_first(column: pa.Array) -> pa.Array:
    """Upper-case the first character only (utf8_capitalize would lower-case "Paris" in "à Paris")."""
    return cat(pc.utf8_upper(pc.utf8_slice_codeunits(column, 0, 1)), pc.utf8_slice_codeunits(column, 1))


def fill(template: str, **slots: pa.Array) -> pa.Array:
    """`template` with each {slot} replaced by the same row of that column (vectorised str.format)."""
    parts: list[pa.Array | str] = []
    for literal, slot in re.findall(r"([^{]*)(?:\{(\w+)\})?", template):
        if literal:
            parts.append(literal)
        if slot:
            parts.append(slots[slot])
    if not any(isinstance(p, pa.Array) for p in parts):
        raise ValueError(f"template {template!r} uses none of {sorted(slots)}")
    return cat(*parts)


def titles(lang: Language, rng: np.random.Generator, n: int) -> pa.Array:
    """n film titles in lang: a noun, a noun and a place, two nouns, or an adjective and a noun."""
    first = _draw(rng, n) % len(lang.nouns)
    second = (first + 1 + _draw(rng, n) % (len(lang.nouns) - 1)) % len(lang.nouns)  # never the same noun twice
    noun, other = pick(lang.nouns, first), pick(lang.nouns, second)
    place = pick(lang.places, _draw(rng, n))
    adjective = pick(lang.adjectives or ("",), _draw(rng, n))
    kind = rng.choice(
        4, size=n, p=np.array([4, 2, 1.5, 2.5 if lang.adjectives else 0]) / (10 if lang.adjectives else 7.5)
    )
    located = cat(place, noun) if lang.place_first else cat(noun, place)
    titled = pc.choose(pa.array(kind.astype(np.int8)), noun, located, cat(noun, lang.conj, other), cat(adjective, noun))
    return _raise_first(titled) if lang.capitalise else titled


def overviews(lang: Language, rng: np.random.Generator, n: int) -> pa.Array:
    return fill(
        lang.overview,
        name=pick(lang.names, _draw(rng, n)),
        goal=pick(lang.goals, _draw(rng, n)),
        threat=pick(lang.threats, _draw(rng, n)),
    )


def taglines(lang: Language, rng: np.random.Generator, n: int) -> pa.Array:
    return pick(lang.taglines, _draw(rng, n))


def collection_names(lang: Language, base: pa.Array) -> pa.Array:
    return fill(lang.collection_name, base=base)


def collection_overviews(lang: Language, base: pa.Array) -> pa.Array:
    return fill(lang.collection_overview, base=base)
