package bootcheck

import (
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	_ "google.golang.org/protobuf/types/known/timestamppb"
)

func TestFieldPath(t *testing.T) {
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	field := func(name string, n int32, typ descriptorpb.FieldDescriptorProto_Type, typeName string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(n), Type: typ.Enum(), Label: opt.Enum()}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	rep := field("r", 7, descriptorpb.FieldDescriptorProto_TYPE_INT64, "")
	rep.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	mapField := field("m", 4, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, ".t.M.MEntry")
	mapField.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	fd := &descriptorpb.FileDescriptorProto{
		Name: proto.String("t.proto"), Package: proto.String("t"), Syntax: proto.String("proto3"),
		Dependency: []string{"google/protobuf/timestamp.proto"},
		EnumType:   []*descriptorpb.EnumDescriptorProto{{Name: proto.String("E"), Value: []*descriptorpb.EnumValueDescriptorProto{{Name: proto.String("Z"), Number: proto.Int32(0)}}}},
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("N"), Field: []*descriptorpb.FieldDescriptorProto{field("x", 1, descriptorpb.FieldDescriptorProto_TYPE_INT32, "")}},
			{Name: proto.String("M"), Field: []*descriptorpb.FieldDescriptorProto{
				field("s", 1, descriptorpb.FieldDescriptorProto_TYPE_STRING, ""),
				field("b", 2, descriptorpb.FieldDescriptorProto_TYPE_BOOL, ""),
				field("n", 3, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, ".t.N"),
				mapField,
				field("e", 5, descriptorpb.FieldDescriptorProto_TYPE_ENUM, ".t.E"),
				field("ts", 6, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, ".google.protobuf.Timestamp"),
				rep,
			}, NestedType: []*descriptorpb.DescriptorProto{{
				Name: proto.String("MEntry"), Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
				Field: []*descriptorpb.FieldDescriptorProto{
					field("key", 1, descriptorpb.FieldDescriptorProto_TYPE_STRING, ""),
					field("value", 2, descriptorpb.FieldDescriptorProto_TYPE_INT32, ""),
				},
			}}},
		},
	}
	f, err := protodesc.NewFile(fd, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	root := f.Messages().ByName("M")
	data, err := os.ReadFile("testdata/fieldpath.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		path, want, _ := strings.Cut(l, "\t")
		if want == "ok" {
			want = ""
		}
		if got := fieldPathProblem(root, "type.googleapis.com/t.M", path); got != want {
			t.Errorf("%q: got %q, want %q", path, got, want)
		}
	}
}
